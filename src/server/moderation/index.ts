// Content moderation for shouts. See README.md beside this file.
export {
  type CreateImageModeratorOptions,
  createImageModerator,
  DEFAULT_NSFW_THRESHOLDS,
  type ImageModerationConfig,
  type ImageModerationResult,
  type ImageModerator,
  imageModerationConfig,
  ModerationError,
  type ModerationSettings,
  NSFW_CLASSES,
  type NsfwClass,
  type NsfwModelName,
  type NsfwScores,
  type NsfwThresholds,
  type TfBackend,
  type VideoFramesModerationResult,
} from './image.ts'
export {
  findProfanity,
  foldText,
  type Language,
  moderateText,
  type TextFields,
  type TextModerationResult,
} from './text.ts'
