-- The keepsake page (share/): a public page /s/{share_id} showing an order's shout on its billboard,
-- made by the shopper from the order's page and revoked there. It names the order only here, never
-- on the page; the row goes when the shopper revokes it or the order's personal data is forgotten.
create table shares (
  -- 128 random bits, base64url: the page's address, unguessable
  share_id text primary key,
  -- one live share per order: sharing again answers the same page
  order_guid text not null unique references orders (guid) on delete cascade,
  event_slug text not null,
  -- the language the page speaks (the shopper's choice when sharing)
  locale text not null,
  -- the composite picture (1200×630 JPEG) once made, in the content storage (a folder or a bucket)
  image_name text,
  created_at_epoch_ms bigint not null
);

-- The billboard's screen in its photo (catalogue-format "screenCorners"): four {x, y} fractions of
-- the photo's width and height, clockwise from the top left, for the keepsake's perspective placement.
alter table devices add column screen_corners jsonb;
