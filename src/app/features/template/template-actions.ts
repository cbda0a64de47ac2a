import { content, DEFAULT_TEMPLATE_MODE, type Template } from '../../../contract/content'
import { callApi } from '../../lib/api'
import { devicesStore } from '../../stores/devices'
import { eventStore } from '../../stores/event'
import { orderStore } from '../../stores/order'
import { setStatus } from '../../stores/request-status'
import { templatesStore } from '../../stores/templates'

/** spec §4 template list fetch: mode set to DynamicHtml, then Running, then Success or Failure. */
export async function fetchTemplates(): Promise<void> {
  const device = orderStore.activeDevice
  const event = eventStore.event
  if (!device || !event) return
  templatesStore.activeTemplateMode = DEFAULT_TEMPLATE_MODE
  setStatus(templatesStore, 'fetchTemplateListStatus', 'Running')
  try {
    // spec §7 call 1: types from the event, size from the active device, the supported modes
    const answer = await callApi(content.generators, {
      query: {
        types: event.allowedContentGeneratorTypes,
        widthPx: device.contentWidth,
        heightPx: device.contentHeight,
        modes: devicesStore.supportedGeneratorModes,
      },
    })
    templatesStore.templateList = answer.generators
    setStatus(templatesStore, 'fetchTemplateListStatus', 'Success')
  } catch {
    setStatus(templatesStore, 'fetchTemplateListStatus', 'Failure')
  }
}

/**
 * spec §4: selecting a template with a preview video clears the stored personal image and content
 * request; the template's mode becomes active; the template is saved locally (60 min).
 */
export function selectTemplate(template: Template): void {
  const changed = templatesStore.selectedTemplate?.id !== template.id
  if (template.examplePreviewVideoUrl) {
    orderStore.personalImage = null
    orderStore.contentGenReq = null
  }
  if (template.mode) templatesStore.activeTemplateMode = template.mode
  templatesStore.selectedTemplate = template
  if (changed) {
    // content made with another template is not this design
    templatesStore.generatedContent = null
    templatesStore.videoCompositeContent = null
    orderStore.contentGenReq = null
  }
}
