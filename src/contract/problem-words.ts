// The params of a problem whose value is a key of a table of words ({agreement: 'terms'} is written
// "terms and conditions"), by code. The words themselves, in English, are the catalogue's
// (./problems.ts WORDS); the app, which never loads the catalogue, translates a key by this table
// (src/app/lib/problem-text.ts), and Lingui's messages for the words have the ids `table.key`.
export const WORD_PARAMS = {
  agreement_required: { agreement: 'agreement' },
  upload_kind_mismatch: { needed: 'contentType', kind: 'contentType' },
  upload_processing: { kind: 'contentType' },
  upload_failed: { kind: 'contentType' },
  upload_failed_unknown: { kind: 'contentType' },
  video_other_file: { other: 'fileKind' },
  upload_not_only_video: { other: 'fileKind' },
  upload_required: { contentType: 'contentType' },
  content_type_unavailable: { contentType: 'contentTypeTitle' },
  campaign_state_conflict: { state: 'campaignState' },
  catalogue_duplicate: { kind: 'catalogueId' },
} as const satisfies Record<string, Record<string, string>>

/** The table of words a param of a code stands for, or undefined when its value is written as is. */
export const wordTableOf = (code: string, param: string): string | undefined =>
  (WORD_PARAMS as Record<string, Record<string, string> | undefined>)[code]?.[param]
