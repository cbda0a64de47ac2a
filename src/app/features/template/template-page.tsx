import { Trans, useLingui } from '@lingui/react/macro'
import { useNavigate, useParams } from '@tanstack/react-router'
import { useEffect } from 'react'
import { useSnapshot } from 'valtio'
import { type Template, templateNameIn } from '../../../contract/content'
import { templatesStore } from '../../stores/templates'
import { ActionBar } from '../../ui/action-bar'
import { Button } from '../../ui/button'
import { Notice } from '../../ui/notice'
import { Picture } from '../../ui/picture'
import { Skeleton } from '../../ui/skeleton'
import { StepHeader } from '../../ui/step-header'
import { fetchTemplates, selectTemplate } from './template-actions'

export function TemplatePage() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const { eventslug } = useParams({ from: '/_default/$eventslug' })
  const templates = useSnapshot(templatesStore)
  // each design named in the shopper's language where the catalogue gives one
  const named = <T extends Pick<Template, 'name' | 'names'>>(template: T): T => ({
    ...template,
    name: templateNameIn(template, i18n.locale),
  })

  useEffect(() => {
    void fetchTemplates()
  }, [])

  const loading =
    templates.fetchTemplateListStatus === 'Running' && templates.templateList.length === 0
  const selectedId = templates.selectedTemplate?.id ?? null

  return (
    <main className="page page--flow" id="main">
      <StepHeader
        step="template"
        title={<Trans>Choose a design</Trans>}
        lead={<Trans>Each design is made for the size of your billboard.</Trans>}
      />
      {templates.fetchTemplateListStatus === 'Failure' ? (
        <Notice tone="error">
          <Trans>The designs could not be loaded. Check your connection and try again.</Trans>
        </Notice>
      ) : null}
      {loading ? (
        <Skeleton height={180} count={3} />
      ) : (
        <ul className="cards cards--grid">
          {templates.templateList.map(named).map((template) => {
            const selected = template.id === selectedId
            return (
              <li key={template.id} className={`card template ${selected ? 'card--selected' : ''}`}>
                {template.examplePreviewVideoUrl ? (
                  <video
                    className="template__preview"
                    style={{ aspectRatio: `${template.widthPx} / ${template.heightPx}` }}
                    src={template.examplePreviewVideoUrl}
                    poster={template.previewImageUrl}
                    width={template.widthPx}
                    height={template.heightPx}
                    autoPlay
                    muted
                    loop
                    playsInline
                    aria-label={t`Preview of ${template.name}`}
                  />
                ) : (
                  <Picture
                    className="template__preview"
                    style={{ aspectRatio: `${template.widthPx} / ${template.heightPx}` }}
                    src={template.previewImageUrl}
                    alt={t`Preview of ${template.name}`}
                    width={template.widthPx}
                    height={template.heightPx}
                    loading="lazy"
                  />
                )}
                <div className="template__body">
                  <h2 className="template__name">{template.name}</h2>
                  <p className="badge">
                    {template.examplePreviewVideoUrl ? <Trans>Video</Trans> : <Trans>Photo</Trans>}
                  </p>
                  <Button
                    kind={selected ? 'green' : 'orange'}
                    size="small"
                    aria-pressed={selected}
                    aria-label={
                      selected ? t`Selected: ${template.name}` : t`Choose ${template.name}`
                    }
                    onClick={() =>
                      selectTemplate(
                        templatesStore.templateList.find((x) => x.id === template.id) as Template,
                      )
                    }
                  >
                    {selected ? <Trans>Selected</Trans> : <Trans>Choose</Trans>}
                  </Button>
                </div>
              </li>
            )
          })}
        </ul>
      )}
      <ActionBar>
        <p className="action-bar__info">
          {templates.selectedTemplate
            ? templateNameIn(templates.selectedTemplate, i18n.locale)
            : t`No design chosen yet`}
        </p>
        <Button
          kind={selectedId ? 'orange' : 'disabled'}
          size="large"
          onClick={() =>
            void navigate({ to: '/$eventslug/design/customize', params: { eventslug } })
          }
        >
          <Trans>Continue</Trans>
        </Button>
      </ActionBar>
    </main>
  )
}
