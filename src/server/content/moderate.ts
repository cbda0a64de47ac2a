// spec §5 "Inappropriate content (profanity, nudity) is detected automatically and flagged": the
// moderator the content service uses unless given another. Texts (buyer, recipient, message) go through
// moderateText (en, fr, de); the photo and the frames of a video through the nudity model. A flag
// refuses nothing: the content is stored flagged and an order naming it is placed UnderReview.
import { type ImageModerator, ModerationError, moderateText } from '../moderation/index.ts'
import type { ContentModerator } from './generate.ts'

export function createContentModerator(images: ImageModerator): ContentModerator {
  return async ({ texts, photo, frames }) => {
    const text = moderateText(texts)
    const reasons = [...text.reasons]
    try {
      if (photo) {
        const image = await images.moderateImage(photo)
        reasons.push(...image.reasons.map((reason) => `photo: ${reason}`))
      }
      if (frames && frames.length > 0) {
        const video = await images.moderateVideoFrames(frames)
        reasons.push(...video.reasons.map((reason) => `video: ${reason}`))
      }
    } catch (error) {
      // A picture nobody could check goes to a person rather than to a billboard unseen.
      if (!(error instanceof ModerationError)) throw error
      reasons.push(`picture not checked: ${error.message}`)
    }
    return { flagged: reasons.length > 0, reasons }
  }
}
