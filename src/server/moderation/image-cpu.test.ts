// The pure JavaScript backend, for machines where WebAssembly is unavailable (MODERATION_TF_BACKEND=cpu).
// In its own file: the TensorFlow.js backend is chosen once per process.
import * as tf from '@tensorflow/tfjs'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { createImageModerator } from './image.ts'

describe('image moderation on the cpu backend', () => {
  it('loads the bundled model and passes a plain picture clean', async () => {
    const moderator = createImageModerator({ backend: 'cpu' })
    const photo = await sharp({
      create: { width: 320, height: 200, channels: 3, background: '#2a9d8f' },
    })
      .jpeg()
      .toBuffer()
    const result = await moderator.moderateImage(photo)
    expect(tf.getBackend()).toBe('cpu')
    expect(result.flagged).toBe(false)
  }, 60_000)
})
