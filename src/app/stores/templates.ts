import { proxy } from 'valtio'
import type { ContentEntry, GeneratedContent, Template } from '../../contract/content'
import { DEFAULT_TEMPLATE_MODE } from '../../domain/content'
import type { ProblemData } from '../../domain/problems'
import { TTL } from '../../domain/storage'
import { persist, removeEnvelope } from './persist'
import type { RequestStatus } from './request-status'

// spec §3 "Template store state".
type TemplatesState = {
  templateList: Template[]
  selectedTemplate: Template | null
  generatedContent: GeneratedContent | null
  videoCompositeContent: ContentEntry | null
  /** why the design could not be made (problems, translated where shown); null: no failure */
  generatedContentError: ProblemData[] | null
  fetchTemplateListStatus: RequestStatus
  processContentGeneratorStatus: RequestStatus
  activeTemplateMode: string
  /** spec §3: upload ids awaiting processing (newContentUploadIds, 4 min) */
  newContentUploadIds: string[]
}

export const templatesStore = proxy<TemplatesState>({
  templateList: [],
  selectedTemplate: null,
  generatedContent: null,
  videoCompositeContent: null,
  generatedContentError: null,
  fetchTemplateListStatus: null,
  processContentGeneratorStatus: null,
  activeTemplateMode: DEFAULT_TEMPLATE_MODE,
  newContentUploadIds: [],
})

/** spec §4: reset clears list, selection, content, error, statuses and mode, and both saved entries. */
export function resetTemplates(): void {
  Object.assign(templatesStore, {
    templateList: [],
    selectedTemplate: null,
    generatedContent: null,
    videoCompositeContent: null,
    generatedContentError: null,
    fetchTemplateListStatus: null,
    processContentGeneratorStatus: null,
    activeTemplateMode: DEFAULT_TEMPLATE_MODE,
  })
  void removeEnvelope('selected-template')
  void removeEnvelope('generated-content')
}

// spec §9: selected template and generated content live 60 min.
persist(templatesStore, {
  key: 'selected-template',
  version: 1,
  ttlMs: TTL.template,
  schema: async () => (await import('./saved-state')).SelectedTemplateSchema,
  pick: () =>
    templatesStore.selectedTemplate
      ? {
          selectedTemplate: templatesStore.selectedTemplate,
          activeTemplateMode: templatesStore.activeTemplateMode,
        }
      : null,
  apply: (data) => {
    templatesStore.selectedTemplate = data.selectedTemplate
    templatesStore.activeTemplateMode = data.activeTemplateMode
  },
})

persist(templatesStore, {
  key: 'generated-content',
  version: 1,
  ttlMs: TTL.generatedContent,
  schema: async () => (await import('./saved-state')).GeneratedContentSchema,
  pick: () =>
    templatesStore.generatedContent
      ? {
          generatedContent: templatesStore.generatedContent,
          videoCompositeContent: templatesStore.videoCompositeContent,
        }
      : null,
  apply: (data) => {
    templatesStore.generatedContent = data.generatedContent
    templatesStore.videoCompositeContent = data.videoCompositeContent
  },
})

persist(templatesStore, {
  key: 'newContentUploadIds',
  version: 1,
  ttlMs: TTL.uploadIds,
  schema: async () => (await import('./saved-state')).UploadIdsSchema,
  pick: () =>
    templatesStore.newContentUploadIds.length > 0 ? [...templatesStore.newContentUploadIds] : null,
  apply: (ids) => {
    templatesStore.newContentUploadIds = ids
  },
})
