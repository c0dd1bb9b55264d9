-- Every table's row count and checksum, and every sequence's position, one line each
-- ("schema.name|rows|md5" or "schema.name|last_value|is_called"), sorted: backup.sh writes it
-- from the dump's own snapshot, restore.sh checks the restored database against it.
-- Run with psql -X -q -tA -f tables.sql (\gexec runs each generated query).
SELECT CASE WHEN c.relkind = 'S'
         THEN format('SELECT %L, last_value, is_called FROM %I.%I', n.nspname || '.' || c.relname, n.nspname, c.relname)
         ELSE format($q$SELECT %L, count(*), coalesce(md5(string_agg(t::text, E'\n' ORDER BY t::text)), '-') FROM %I.%I t$q$,
                     n.nspname || '.' || c.relname, n.nspname, c.relname)
       END
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'S')
  AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname NOT LIKE 'pg\_%'
ORDER BY n.nspname, c.relname
\gexec
