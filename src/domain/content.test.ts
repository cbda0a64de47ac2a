import { describe, expect, it } from 'vitest'
import { contentTypeOfFileName, isVideoTemplate, uploadAccept } from './content'

describe('upload file types (spec §9)', () => {
  it('images are jpg, jpeg, gif and png, in any case', () => {
    expect(['a.jpg', 'a.JPEG', 'b.gif', 'c.d.png'].map(contentTypeOfFileName)).toEqual([
      'photo',
      'photo',
      'photo',
      'photo',
    ])
  })
  it('videos are mp4, wav, mpg, avi and wmv', () => {
    expect(['a.mp4', 'a.wav', 'a.mpg', 'a.avi', 'a.WMV'].map(contentTypeOfFileName)).toEqual([
      'video',
      'video',
      'video',
      'video',
      'video',
    ])
  })
  it('anything else is refused', () => {
    expect(['a.webp', 'a.mov', 'png', 'a.', 'a.png.exe'].map(contentTypeOfFileName)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ])
  })
  it('builds the file picker accept list', () => {
    expect(uploadAccept(['photo'])).toBe('.jpg,.jpeg,.gif,.png')
    expect(uploadAccept(['photo', 'video'])).toBe('.jpg,.jpeg,.gif,.png,.mp4,.wav,.mpg,.avi,.wmv')
    expect(uploadAccept([])).toBe('')
  })
})

describe('video templates (spec §3)', () => {
  it('are marked by an example preview video', () => {
    expect(isVideoTemplate({ examplePreviewVideoUrl: '/catalogue/v.mp4' })).toBe(true)
    expect(isVideoTemplate({ examplePreviewVideoUrl: null })).toBe(false)
    expect(isVideoTemplate({ examplePreviewVideoUrl: '' })).toBe(false)
  })
})
