// The video settings' choices (env.ts reads VIDEO_X264_PRESET with them).

/**
 * x264 presets, fastest first. The default is superfast: measured here on 10 s of grainy 720p30 with the
 * machine busy, veryfast took 19.7 s, superfast 8.0 s, ultrafast 3.3 s; the shopper waits at most 30 s
 * (spec §9), so speed wins over the smaller file veryfast makes.
 */
export const X264_PRESETS = [
  'ultrafast',
  'superfast',
  'veryfast',
  'faster',
  'fast',
  'medium',
  'slow',
  'slower',
  'veryslow',
] as const
export type X264Preset = (typeof X264_PRESETS)[number]
