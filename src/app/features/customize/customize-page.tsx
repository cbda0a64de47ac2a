import { Trans, useLingui } from '@lingui/react/macro'
import { useNavigate, useParams } from '@tanstack/react-router'
import { type ChangeEvent, useEffect, useState } from 'react'
import { useSnapshot } from 'valtio'
import {
  BUYER_NAME_MAX_LENGTH,
  MESSAGE_MAX_LENGTH,
  RECIPIENT_NAME_MAX_LENGTH,
  templateNameIn,
} from '../../../contract/content'
import { ApiError } from '../../lib/api'
import { problemText } from '../../lib/problem-text'
import { orderStore } from '../../stores/order'
import { templatesStore } from '../../stores/templates'
import { ActionBar } from '../../ui/action-bar'
import { Button } from '../../ui/button'
import { GeneratedContentView } from '../../ui/generated-content'
import { Notice } from '../../ui/notice'
import { ProblemList } from '../../ui/problem-list'
import { StepHeader } from '../../ui/step-header'
import { TextArea } from '../../ui/text-area'
import { TextField } from '../../ui/text-field'
import { generateContent, invalidateContent, uploadPersonalContent } from './customize-actions'

// spec §9: accepted file extensions
const IMAGE_ACCEPT = '.jpg,.jpeg,.gif,.png,image/jpeg,image/gif,image/png'
const VIDEO_ACCEPT = '.mp4,.wav,.mpg,.avi,.wmv,video/*'

export function CustomizePage() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const { eventslug } = useParams({ from: '/_default/$eventslug' })
  const order = useSnapshot(orderStore)
  const templates = useSnapshot(templatesStore)
  const template = templates.selectedTemplate
  const isVideo = Boolean(template?.examplePreviewVideoUrl)
  // the local preview is a blob URL held by the component, never put into a store
  const [localPreview, setLocalPreview] = useState<string | null>(null)
  const [uploading, setUploading] = useState(false)
  const [uploadError, setUploadError] = useState<string | null>(null)

  useEffect(
    () => () => {
      if (localPreview) URL.revokeObjectURL(localPreview)
    },
    [localPreview],
  )

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0]
    if (!file) return
    setUploadError(null)
    setLocalPreview(URL.createObjectURL(file))
    setUploading(true)
    try {
      const upload = await uploadPersonalContent(file)
      // A file the shop refused is not shown as the shopper's picture (a text file
      // showed as a broken image beside the message)
      if (upload.status === 'failed') setLocalPreview(null)
      if (upload.status === 'failed') {
        const problem =
          upload.problems?.[0] ??
          (upload.error ? { code: 'plain_text', params: { text: upload.error } } : null)
        setUploadError(problem ? problemText(i18n, problem) : t`This file could not be used.`)
      } else if (upload.status === 'processing')
        setUploadError(t`Your video is still processing. Please try again in a moment.`)
    } catch (error) {
      setLocalPreview(null)
      const problem = error instanceof ApiError ? error.problems[0] : undefined
      setUploadError(
        problem
          ? problemText(i18n, problem, (error as ApiError).errors[0])
          : t`The upload failed. Check your connection and try again.`,
      )
    } finally {
      setUploading(false)
    }
  }

  const edit = (field: 'buyerName' | 'recipientName' | 'multilineMessage', value: string) => {
    orderStore[field] = value
    if (templatesStore.generatedContent) invalidateContent()
  }

  const generating = templates.processContentGeneratorStatus === 'Running'
  const content = templates.generatedContent
  const ready = Boolean(content && order.contentGenReq)
  const preview = localPreview ?? order.personalImage?.url ?? null

  return (
    <main className="page page--flow" id="main">
      <StepHeader
        step="customize"
        title={<Trans>Make it yours</Trans>}
        lead={template ? templateNameIn(template, i18n.locale) : undefined}
      />

      <div className="customize-grid">
        <section className="card customize__upload" aria-labelledby="upload-heading">
          <h2 id="upload-heading" className="section-title">
            {isVideo ? <Trans>Your video</Trans> : <Trans>Your photo</Trans>}
          </h2>
          <div className="upload">
            {preview ? (
              isVideo ? (
                <video
                  className="upload__preview"
                  src={preview}
                  muted
                  playsInline
                  controls
                  width={320}
                  height={180}
                />
              ) : (
                <img
                  className="upload__preview"
                  src={preview}
                  alt={t`Preview of your upload`}
                  width={320}
                  height={180}
                />
              )
            ) : (
              <div className="upload__empty" aria-hidden="true">
                <svg viewBox="0 0 24 24" width="48" height="48" aria-hidden="true">
                  <path
                    d="M4 7h3l2-3h6l2 3h3a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z"
                    fill="none"
                    stroke="#8a7f75"
                    strokeWidth="1.5"
                  />
                  <circle cx="12" cy="13" r="4" fill="none" stroke="#8a7f75" strokeWidth="1.5" />
                </svg>
              </div>
            )}
            <label
              className={`btn btn--black btn--medium btn--side-center upload__button ${uploading ? 'btn--loading' : ''}`}
            >
              <svg
                className="btn__icon"
                viewBox="0 0 24 24"
                width="20"
                height="20"
                aria-hidden="true"
              >
                <path
                  d="M12 16V4m0 0-5 5m5-5 5 5M4 20h16"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                />
              </svg>
              <span className="btn__label">
                {uploading ? (
                  <Trans>Uploading…</Trans>
                ) : isVideo ? (
                  <Trans>Upload a video</Trans>
                ) : (
                  <Trans>Upload a photo</Trans>
                )}
              </span>
              <input
                type="file"
                className="visually-hidden"
                accept={isVideo ? VIDEO_ACCEPT : IMAGE_ACCEPT}
                onChange={(e) => void onFile(e)}
                disabled={uploading}
              />
            </label>
            {isVideo ? (
              <p className="field__hint">
                {template?.videoMaxLengthSeconds
                  ? t`Videos longer than ${template.videoMaxLengthSeconds} seconds are trimmed. Processing can take up to 30 seconds.`
                  : t`Processing can take up to 30 seconds.`}
              </p>
            ) : null}
            {uploading && isVideo ? (
              <Notice>
                <Trans>Processing your video…</Trans>
              </Notice>
            ) : null}
            {uploadError ? <Notice tone="error">{uploadError}</Notice> : null}
          </div>
        </section>

        <section className="card customize__text" aria-labelledby="text-heading">
          <h2 id="text-heading" className="section-title">
            <Trans>Your message</Trans>
          </h2>
          <TextField
            label={t`To (recipient's name)`}
            value={order.recipientName}
            maxLength={RECIPIENT_NAME_MAX_LENGTH}
            onChange={(e) => edit('recipientName', e.target.value)}
            autoComplete="off"
          />
          <TextArea
            label={t`Message`}
            value={order.multilineMessage}
            maxLength={MESSAGE_MAX_LENGTH}
            rows={4}
            hint={t`${order.multilineMessage.length} of ${MESSAGE_MAX_LENGTH} characters`}
            onChange={(e) => edit('multilineMessage', e.target.value)}
          />
          <TextField
            label={t`From (your name)`}
            value={order.buyerName}
            maxLength={BUYER_NAME_MAX_LENGTH}
            onChange={(e) => edit('buyerName', e.target.value)}
            autoComplete="given-name"
          />
          <Button
            kind={generating ? 'loading' : uploading ? 'disabled' : 'pink'}
            size="large"
            loadingLabel={t`Creating your design`}
            onClick={() => void generateContent()}
          >
            {content ? <Trans>Update my design</Trans> : <Trans>Create my design</Trans>}
          </Button>
        </section>

        <section
          className="card customize__result"
          aria-labelledby="result-heading"
          aria-live="polite"
        >
          <h2 id="result-heading" className="section-title">
            <Trans>Preview on the billboard</Trans>
          </h2>
          {generating ? (
            <div className="skeleton generated-skeleton" role="status">
              <span className="visually-hidden">
                <Trans>Creating your design…</Trans>
              </span>
            </div>
          ) : content ? (
            <GeneratedContentView content={content} />
          ) : (
            <p className="muted">
              <Trans>Your design appears here once it is created.</Trans>
            </p>
          )}
          {templates.generatedContentError !== null ? (
            <Notice tone="error">
              {templates.generatedContentError.length > 0 ? (
                <ProblemList problems={templates.generatedContentError} />
              ) : (
                t`Your design could not be created. Please try again.`
              )}
            </Notice>
          ) : null}
        </section>
      </div>

      <ActionBar>
        <p className="action-bar__info">
          {ready ? t`Your design is ready` : t`Create your design to continue`}
        </p>
        <Button
          kind={ready ? 'orange' : 'disabled'}
          size="large"
          onClick={() =>
            void navigate({ to: '/$eventslug/order/select-shouts', params: { eventslug } })
          }
        >
          <Trans>Continue</Trans>
        </Button>
      </ActionBar>
    </main>
  )
}
