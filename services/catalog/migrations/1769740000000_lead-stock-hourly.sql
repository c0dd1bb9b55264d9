-- Up Migration
-- Unsold leads per UTC hour of form fill (docs/adr/0054). The 30–180-day window cuts two days
-- at the same time of day; with these the market counts those days' whole hours from here and
-- only the two cut hours (one hour of leads together) row by row, and a page starts at the hour
-- its first lead is in instead of the start of its day. Kept by lead_stock_apply with the
-- per-day stock, in the same statement.
--   lead_stock_hourly: all states together (the unfiltered market);
--   lead_stock_state_hourly: per state (filters of states; area codes are counted on their
--   own index, a few leads an hour).
-- Only the primary keys index them and `leads` is in neither, so an update can be HOT; the
-- fillfactor leaves room on each page for it.
CREATE TABLE lead_stock_hourly (
  fill_hour timestamptz PRIMARY KEY,
  leads integer NOT NULL
) WITH (fillfactor = 50);
CREATE TABLE lead_stock_state_hourly (
  state text NOT NULL,
  fill_hour timestamptz NOT NULL,
  leads integer NOT NULL,
  PRIMARY KEY (state, fill_hour)
) WITH (fillfactor = 70);

-- In key order: a state's hours of one day then share a page or two (their updates are HOT,
-- so they stay there).
INSERT INTO lead_stock_state_hourly (state, fill_hour, leads)
SELECT state, date_trunc('hour', form_fill_time, 'UTC'), count(*)
  FROM aged_leads WHERE sold_at IS NULL GROUP BY 1, 2 ORDER BY 1, 2;
INSERT INTO lead_stock_hourly (fill_hour, leads)
SELECT fill_hour, sum(leads) FROM lead_stock_state_hourly GROUP BY 1 ORDER BY 1;

-- The per-day stock's two secondary indexes no longer carry `leads` (INCLUDE): the filtered
-- whole-day sum reads them as a bitmap OR (state = ANY … OR area_code = ANY …) and then the
-- table anyway, and with `leads` in them no stock update could be HOT (each upsert of an
-- import batch wrote three index entries). The fillfactor keeps room for HOT updates.
DROP INDEX lead_stock_state_idx;
DROP INDEX lead_stock_area_code_idx;
CREATE INDEX lead_stock_state_idx ON lead_stock (state, fill_day);
CREATE INDEX lead_stock_area_code_idx ON lead_stock (area_code, fill_day);
ALTER TABLE lead_stock SET (fillfactor = 70);
ALTER TABLE lead_stock_daily SET (fillfactor = 50);
-- Rewritten once so the existing pages get that room too (in key order, as upserts come).
CLUSTER lead_stock USING lead_stock_pkey;
CLUSTER lead_stock_daily USING lead_stock_daily_pkey;

-- Each branch: the statement's changed leads grouped once per (hour, state, area code), then
-- applied to each stock table grouped by its own key, each in key order (concurrent statements
-- lock stock rows in the same order). An insert or a delete has only one transition table, so
-- the branches cannot share one statement.
CREATE OR REPLACE FUNCTION lead_stock_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH changes AS MATERIALIZED (
      SELECT date_trunc('hour', form_fill_time, 'UTC') AS fill_hour, state, area_code, count(*)::int AS delta
        FROM new_rows WHERE sold_at IS NULL GROUP BY 1, 2, 3
    ), stock AS (
      INSERT INTO lead_stock AS s (fill_day, state, area_code, leads)
      SELECT (fill_hour AT TIME ZONE 'UTC')::date, state, area_code, sum(delta) FROM changes GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (fill_day, state, area_code) DO UPDATE SET leads = s.leads + EXCLUDED.leads
    ), daily AS (
      INSERT INTO lead_stock_daily AS d (fill_day, leads)
      SELECT (fill_hour AT TIME ZONE 'UTC')::date, sum(delta) FROM changes GROUP BY 1 ORDER BY 1
      ON CONFLICT (fill_day) DO UPDATE SET leads = d.leads + EXCLUDED.leads
    ), by_state AS (
      INSERT INTO lead_stock_state_hourly AS h (state, fill_hour, leads)
      SELECT state, fill_hour, sum(delta) FROM changes GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (state, fill_hour) DO UPDATE SET leads = h.leads + EXCLUDED.leads
    )
    INSERT INTO lead_stock_hourly AS a (fill_hour, leads)
    SELECT fill_hour, sum(delta) FROM changes GROUP BY 1 ORDER BY 1
    ON CONFLICT (fill_hour) DO UPDATE SET leads = a.leads + EXCLUDED.leads;
  ELSIF TG_OP = 'DELETE' THEN
    WITH changes AS MATERIALIZED (
      SELECT date_trunc('hour', form_fill_time, 'UTC') AS fill_hour, state, area_code, -count(*)::int AS delta
        FROM old_rows WHERE sold_at IS NULL GROUP BY 1, 2, 3
    ), stock AS (
      INSERT INTO lead_stock AS s (fill_day, state, area_code, leads)
      SELECT (fill_hour AT TIME ZONE 'UTC')::date, state, area_code, sum(delta) FROM changes GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (fill_day, state, area_code) DO UPDATE SET leads = s.leads + EXCLUDED.leads
    ), daily AS (
      INSERT INTO lead_stock_daily AS d (fill_day, leads)
      SELECT (fill_hour AT TIME ZONE 'UTC')::date, sum(delta) FROM changes GROUP BY 1 ORDER BY 1
      ON CONFLICT (fill_day) DO UPDATE SET leads = d.leads + EXCLUDED.leads
    ), by_state AS (
      INSERT INTO lead_stock_state_hourly AS h (state, fill_hour, leads)
      SELECT state, fill_hour, sum(delta) FROM changes GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (state, fill_hour) DO UPDATE SET leads = h.leads + EXCLUDED.leads
    )
    INSERT INTO lead_stock_hourly AS a (fill_hour, leads)
    SELECT fill_hour, sum(delta) FROM changes GROUP BY 1 ORDER BY 1
    ON CONFLICT (fill_hour) DO UPDATE SET leads = a.leads + EXCLUDED.leads;
  ELSE
    WITH changes AS MATERIALIZED (
      SELECT fill_hour, state, area_code, sum(delta)::int AS delta
        FROM (SELECT date_trunc('hour', form_fill_time, 'UTC') AS fill_hour, state, area_code, 1 AS delta
                FROM new_rows WHERE sold_at IS NULL
              UNION ALL
              SELECT date_trunc('hour', form_fill_time, 'UTC'), state, area_code, -1
                FROM old_rows WHERE sold_at IS NULL) AS c
       GROUP BY 1, 2, 3 HAVING sum(delta) <> 0
    ), stock AS (
      INSERT INTO lead_stock AS s (fill_day, state, area_code, leads)
      SELECT (fill_hour AT TIME ZONE 'UTC')::date, state, area_code, sum(delta) FROM changes GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (fill_day, state, area_code) DO UPDATE SET leads = s.leads + EXCLUDED.leads
    ), daily AS (
      INSERT INTO lead_stock_daily AS d (fill_day, leads)
      SELECT (fill_hour AT TIME ZONE 'UTC')::date, sum(delta) FROM changes GROUP BY 1 ORDER BY 1
      ON CONFLICT (fill_day) DO UPDATE SET leads = d.leads + EXCLUDED.leads
    ), by_state AS (
      INSERT INTO lead_stock_state_hourly AS h (state, fill_hour, leads)
      SELECT state, fill_hour, sum(delta) FROM changes GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (state, fill_hour) DO UPDATE SET leads = h.leads + EXCLUDED.leads
    )
    INSERT INTO lead_stock_hourly AS a (fill_hour, leads)
    SELECT fill_hour, sum(delta) FROM changes GROUP BY 1 ORDER BY 1
    ON CONFLICT (fill_hour) DO UPDATE SET leads = a.leads + EXCLUDED.leads;
  END IF;
  RETURN NULL;
END $$;

-- Down Migration
CREATE OR REPLACE FUNCTION lead_stock_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH changes AS (
      SELECT (form_fill_time AT TIME ZONE 'UTC')::date AS fill_day, state, area_code, count(*)::int AS delta
        FROM new_rows WHERE sold_at IS NULL GROUP BY 1, 2, 3
    ), stock AS (
      INSERT INTO lead_stock AS s (fill_day, state, area_code, leads)
      SELECT * FROM changes ORDER BY 1, 2, 3
      ON CONFLICT (fill_day, state, area_code) DO UPDATE SET leads = s.leads + EXCLUDED.leads
    )
    INSERT INTO lead_stock_daily AS d (fill_day, leads)
    SELECT fill_day, sum(delta) FROM changes GROUP BY 1 ORDER BY 1
    ON CONFLICT (fill_day) DO UPDATE SET leads = d.leads + EXCLUDED.leads;
  ELSIF TG_OP = 'DELETE' THEN
    WITH changes AS (
      SELECT (form_fill_time AT TIME ZONE 'UTC')::date AS fill_day, state, area_code, -count(*)::int AS delta
        FROM old_rows WHERE sold_at IS NULL GROUP BY 1, 2, 3
    ), stock AS (
      INSERT INTO lead_stock AS s (fill_day, state, area_code, leads)
      SELECT * FROM changes ORDER BY 1, 2, 3
      ON CONFLICT (fill_day, state, area_code) DO UPDATE SET leads = s.leads + EXCLUDED.leads
    )
    INSERT INTO lead_stock_daily AS d (fill_day, leads)
    SELECT fill_day, sum(delta) FROM changes GROUP BY 1 ORDER BY 1
    ON CONFLICT (fill_day) DO UPDATE SET leads = d.leads + EXCLUDED.leads;
  ELSE
    WITH changes AS (
      SELECT fill_day, state, area_code, sum(delta)::int AS delta
        FROM (SELECT (form_fill_time AT TIME ZONE 'UTC')::date AS fill_day, state, area_code, 1 AS delta
                FROM new_rows WHERE sold_at IS NULL
              UNION ALL
              SELECT (form_fill_time AT TIME ZONE 'UTC')::date, state, area_code, -1
                FROM old_rows WHERE sold_at IS NULL) AS c
       GROUP BY 1, 2, 3 HAVING sum(delta) <> 0
    ), stock AS (
      INSERT INTO lead_stock AS s (fill_day, state, area_code, leads)
      SELECT * FROM changes ORDER BY 1, 2, 3
      ON CONFLICT (fill_day, state, area_code) DO UPDATE SET leads = s.leads + EXCLUDED.leads
    )
    INSERT INTO lead_stock_daily AS d (fill_day, leads)
    SELECT fill_day, sum(delta) FROM changes GROUP BY 1 ORDER BY 1
    ON CONFLICT (fill_day) DO UPDATE SET leads = d.leads + EXCLUDED.leads;
  END IF;
  RETURN NULL;
END $$;
ALTER TABLE lead_stock_daily RESET (fillfactor);
ALTER TABLE lead_stock RESET (fillfactor);
DROP INDEX lead_stock_state_idx;
DROP INDEX lead_stock_area_code_idx;
CREATE INDEX lead_stock_state_idx ON lead_stock (state, fill_day) INCLUDE (leads);
CREATE INDEX lead_stock_area_code_idx ON lead_stock (area_code, fill_day) INCLUDE (leads);
DROP TABLE lead_stock_state_hourly;
DROP TABLE lead_stock_hourly;
