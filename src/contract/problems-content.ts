// Problems of uploads and content generation (content/, video/).
// A part of the one catalogue (./problems.ts says how it is read and how to add a code).

export const CONTENT_PROBLEMS = {
  // ---- uploads (content/receive.ts, image.ts, video.ts and src/server/video; spec §9)
  upload_not_multipart: {
    status: 400,
    en: 'Send the file as multipart/form-data in the field "file".',
  },
  upload_multipart_invalid: {
    status: 400,
    en: 'The upload is not valid multipart/form-data: {reason}',
  },
  upload_read_failed: { status: 400, en: 'The upload could not be read: {reason}' },
  upload_malformed: { status: 400, en: 'The upload could not be read.' },
  upload_no_file: { status: 400, en: 'No file: send it in the multipart field "file".' },
  upload_empty: { status: 400, en: 'The file is empty.' },
  upload_template_unknown: {
    status: 400,
    en: 'generatorId: unknown template "{generatorId}"',
  },
  upload_too_large: { status: 413, en: 'The file is too large. The limit is {mb} MB.' },
  upload_wrong_type: {
    status: 415,
    en: 'This file type is not supported. Use a jpg, jpeg, gif or png image, or an mp4, wav, mpg, avi or wmv video.',
  },
  upload_unsupported: { status: 415, en: 'This kind of upload cannot be processed here.' },
  upload_processing_failed: { status: 422, en: 'The file could not be processed.' },
  image_unreadable: {
    status: 415,
    en: 'This file could not be read as an image (jpg, jpeg, gif or png).',
  },
  image_too_large: {
    status: 413,
    en: 'The image is too large: at most {maxSide, number} pixels a side (this one is {width}×{height}).',
  },
  image_too_many_pixels: {
    status: 413,
    en: 'The image is too large: at most {megapixels} megapixels (this one is {width}×{height}).',
  },
  image_pixel_limit: {
    status: 413,
    en: 'The image is too large: at most {megapixels} megapixels.',
  },
  // a picture of a needle's shape: readable, but not one to show
  image_wrong_shape: {
    status: 422,
    en: 'The image is too narrow: its long side may be at most {ratio} times its short side (this one is {width}×{height}).',
  },
  video_wrong_type: {
    status: 415,
    en: 'This file is not a supported video (mp4, mpg, avi, wmv or wav).',
  },
  video_other_file: {
    status: 415,
    en: 'This file is {other}, not a video (mp4, mpg, avi, wmv or wav).',
  },
  // a file that reads as a video and as something else (a GIFAR-style attack)
  upload_not_only_video: {
    status: 415,
    en: 'This file claims to be a {format} video but is also {other}; it was refused.',
  },
  video_polyglot: { status: 415, en: 'This file is not only a video.' },
  upload_sound_only: {
    status: 415,
    en: 'A wav file is sound only: no template here pairs sound with a photo, and billboards play without sound. Upload a video (mp4, mpg, avi or wmv) or a photo.',
  },
  video_sound_only: {
    status: 422,
    en: 'A wav file has no pictures: it can only go with a template that pairs sound with a photo.',
  },
  video_container_mismatch: {
    status: 422,
    en: 'This file starts like a {format} video but its contents are not one.',
  },
  video_no_pictures: {
    status: 422,
    en: 'This file has no pictures: it cannot be played as a video.',
  },
  video_empty: { status: 422, en: 'This file holds neither pictures nor sound.' },
  // what ffmpeg or ffprobe said, without the server's paths
  video_unreadable: { status: 422, en: 'This video could not be read: {reason}' },
  // past VIDEO_LIMITS: a side, the frame rate or the pixels a second
  video_too_large: {
    status: 413,
    en: 'The video is too large: at most {maxSide}×{maxSide} pixels (this one is {width}×{height}).',
  },
  video_frame_rate_too_high: {
    status: 413,
    en: 'The video has too many pictures a second: at most {max} (this one has {frameRate}).',
  },
  video_pixel_rate_too_high: {
    status: 413,
    en: 'The video is too large for its frame rate: {width}×{height} at {frameRate} pictures a second is more than 4K at 60. Upload a smaller or slower video.',
  },
  // the shop's disk or quota is full: not the shopper's fault, try later
  storage_full: {
    status: 507,
    en: 'The shop cannot store files right now (its storage is full). Please try again later.',
  },
  // content storage (the folder or the bucket) does not answer for a while: try again shortly
  storage_unavailable: {
    status: 503,
    en: 'The shop cannot reach its stored files right now. Please try again in a moment.',
  },

  // ---- content generation (content/generate.ts): a request that names something wrong
  template_unknown: {
    status: 400,
    en: 'contentGenerationRequest.generatorId: unknown template "{generatorId}"',
  },
  billboard_unknown: {
    status: 400,
    en: 'contentGenerationRequest.deviceId: unknown billboard "{deviceId}"',
  },
  event_unknown: {
    status: 400,
    en: 'contentGenerationRequest.eventSlug: unknown event "{eventSlug}"',
  },
  billboard_not_in_event: {
    status: 400,
    en: 'The billboard "{deviceId}" is not part of the event "{eventSlug}".',
  },
  template_not_offered: {
    status: 400,
    en: 'The template "{templateId}" is not offered for the event "{eventSlug}".',
  },
  template_size_mismatch: {
    status: 400,
    en: 'The template "{templateId}" is made for {templateWidthPx}x{templateHeightPx} screens; this billboard shows {billboardWidthPx}x{billboardHeightPx}.',
  },
  upload_unknown: {
    status: 400,
    en: 'contentGenerationRequest.uploadId: unknown upload "{uploadId}"',
  },
  upload_kind_mismatch: {
    status: 400,
    en: 'This template needs a {needed}, and the upload is a {kind}.',
  },
  upload_processing: {
    status: 400,
    en: 'The {kind} is still being processed: try again in a moment.',
  },
  // the upload's own failure is its reason
  upload_failed: {
    status: 400,
    en: 'The {kind} could not be processed: {reason}. Upload another.',
  },
  upload_failed_unknown: {
    status: 400,
    en: 'The {kind} could not be processed: unknown error. Upload another.',
  },
  upload_required: {
    status: 400,
    en: 'This template needs a {contentType}: upload one first.',
  },
  content_type_unavailable: {
    status: 400,
    en: '{contentType} templates are not available on this server.',
  },
  video_needs_async: {
    status: 400,
    en: 'Video shouts are made in the background: send the request with async true.',
  },
  // one client's share of the shop's work and storage (CONTENT_JOBS_PER_CLIENT,
  // UPLOAD_BYTES_PER_CLIENT_HOUR): the shopper waits, the app says so
  content_jobs_busy: {
    status: 429,
    en: 'Your earlier shouts are still being made: wait for them, then try again in {seconds} seconds.',
  },
  upload_busy: {
    status: 429,
    en: 'This photo or video is being made into a shout already: try again in {seconds} seconds.',
  },
  upload_quota: {
    status: 429,
    en: 'You have uploaded too much in the last hour: try again in {seconds} seconds.',
  },
  // a request that was right but could not be made (spec §4: success false, the reason)
  render_failed: { status: 422, en: 'The billboard content could not be rendered.' },
  video_composite_failed: { status: 422, en: 'The billboard video could not be made.' },
  template_invalid: { status: 422, en: 'The template is not valid: {detail}' },
  template_needs_photo: { status: 422, en: 'This template needs a photo' },
  render_size_invalid: {
    status: 422,
    en: 'The billboard {side} must be a whole number of pixels from 1 to 8192, not {value}',
  },
  content_kind_unknown: { status: 422, en: 'This kind of content ({kind}) cannot be made here.' },
  upload_not_found: { status: 404, en: 'Upload not found' },
  job_not_found: { status: 404, en: 'Job not found' },
  content_failed: {
    status: 422,
    en: 'The content could not be made. Please try again or contact support.',
  },
  content_not_ready: { status: 409, en: 'The content is not ready yet.' },
  content_not_found: { status: 404, en: 'Content not found' },
  file_not_found: { status: 404, en: 'File not found' },
  template_not_found: { status: 404, en: 'Template not found' },
  template_no_example_clip: { status: 404, en: 'This template has no example clip.' },
  template_render_failed: { status: 422, en: 'This template cannot be rendered.' },
} as const
