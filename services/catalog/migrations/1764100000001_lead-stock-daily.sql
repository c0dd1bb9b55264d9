-- Up Migration
-- Unsold leads per UTC day of form fill, all states together: the unfiltered market (the most
-- asked-for page) adds up ~150 rows instead of every day's state/area-code rows. Kept by the
-- same statement triggers as lead_stock, in the same transactions.
CREATE TABLE lead_stock_daily (
  fill_day date PRIMARY KEY,
  leads integer NOT NULL
);
INSERT INTO lead_stock_daily (fill_day, leads)
SELECT fill_day, sum(leads) FROM lead_stock GROUP BY fill_day;

CREATE OR REPLACE FUNCTION lead_stock_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each branch: the statement's changes per (day, state, area code), applied to lead_stock
  -- and, summed per day, to lead_stock_daily — both in key order.
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

-- Down Migration
CREATE OR REPLACE FUNCTION lead_stock_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO lead_stock AS s (fill_day, state, area_code, leads)
    SELECT (form_fill_time AT TIME ZONE 'UTC')::date, state, area_code, count(*)
      FROM new_rows WHERE sold_at IS NULL
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (fill_day, state, area_code) DO UPDATE SET leads = s.leads + EXCLUDED.leads;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO lead_stock AS s (fill_day, state, area_code, leads)
    SELECT (form_fill_time AT TIME ZONE 'UTC')::date, state, area_code, -count(*)
      FROM old_rows WHERE sold_at IS NULL
     GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (fill_day, state, area_code) DO UPDATE SET leads = s.leads + EXCLUDED.leads;
  ELSE
    INSERT INTO lead_stock AS s (fill_day, state, area_code, leads)
    SELECT fill_day, state, area_code, sum(delta)
      FROM (SELECT (form_fill_time AT TIME ZONE 'UTC')::date AS fill_day, state, area_code, 1 AS delta
              FROM new_rows WHERE sold_at IS NULL
            UNION ALL
            SELECT (form_fill_time AT TIME ZONE 'UTC')::date, state, area_code, -1
              FROM old_rows WHERE sold_at IS NULL) AS changes
     GROUP BY 1, 2, 3 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (fill_day, state, area_code) DO UPDATE SET leads = s.leads + EXCLUDED.leads;
  END IF;
  RETURN NULL;
END $$;
DROP TABLE lead_stock_daily;
