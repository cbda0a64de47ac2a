import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { TrafficDirection } from '../../contract/catalogue'

// A billboard's traffic direction (spec §3, eight of them) goes into a sentence ("Facing
// {0} traffic", "Facing traffic heading {0}"): each language gives the words that fit there, French
// with its preposition and article ("vers le sud-ouest", "vers l'est"), German the heading
// ("Südwesten", after "Richtung").
const NAMES: Record<TrafficDirection, MessageDescriptor> = {
  North: msg({
    message: 'North',
    comment: 'traffic heading north; goes into "Facing {0} traffic"',
  }),
  South: msg({
    message: 'South',
    comment: 'traffic heading south; goes into "Facing {0} traffic"',
  }),
  East: msg({ message: 'East', comment: 'traffic heading east; goes into "Facing {0} traffic"' }),
  West: msg({ message: 'West', comment: 'traffic heading west; goes into "Facing {0} traffic"' }),
  'South West': msg({
    message: 'South West',
    comment: 'traffic heading south-west; goes into "Facing {0} traffic"',
  }),
  'South East': msg({
    message: 'South East',
    comment: 'traffic heading south-east; goes into "Facing {0} traffic"',
  }),
  'North West': msg({
    message: 'North West',
    comment: 'traffic heading north-west; goes into "Facing {0} traffic"',
  }),
  'North East': msg({
    message: 'North East',
    comment: 'traffic heading north-east; goes into "Facing {0} traffic"',
  }),
}

/** The direction's words in the shopper's language (a value the app does not know: as sent). */
export function trafficDirectionName(i18n: I18n, direction: string): string {
  const name = NAMES[direction as TrafficDirection] as MessageDescriptor | undefined
  return name ? i18n._(name) : direction
}
