-- A template's name in each language of the shop ({"fr": "Cœurs", "de": "Herzen"}); `name` stays the
-- name where a language has none (docs/catalogue-format.md). Belongs to src/server/catalogue.
alter table templates add column names jsonb not null default '{}'::jsonb;
