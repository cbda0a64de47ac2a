import type { I18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'

// MapLibre's own words (its gesture hints and its controls' labels) in the shopper's language: the
// keys of maplibre-gl's src/ui/default_locale.ts that the shop's map shows.
export function mapLocale(i18n: I18n): Record<string, string> {
  return {
    'CooperativeGesturesHandler.WindowsHelpText': i18n._(
      msg({
        message: 'Use Ctrl + scroll to zoom the map',
        comment: 'map gesture hint, Windows and Linux',
      }),
    ),
    'CooperativeGesturesHandler.MacHelpText': i18n._(
      msg({ message: 'Use ⌘ + scroll to zoom the map', comment: 'map gesture hint, Mac' }),
    ),
    'CooperativeGesturesHandler.MobileHelpText': i18n._(
      msg({ message: 'Use two fingers to move the map', comment: 'map gesture hint, phones' }),
    ),
    'NavigationControl.ZoomIn': i18n._(msg({ message: 'Zoom in', comment: 'map control' })),
    'NavigationControl.ZoomOut': i18n._(msg({ message: 'Zoom out', comment: 'map control' })),
    'NavigationControl.ResetBearing': i18n._(
      msg({ message: 'Drag to rotate map, click to reset north', comment: 'map control' }),
    ),
    'AttributionControl.ToggleAttribution': i18n._(
      msg({ message: 'Map data sources', comment: "map control: shows the map data's credits" }),
    ),
    'AttributionControl.MapFeedback': i18n._(
      msg({ message: 'Map feedback', comment: 'map control' }),
    ),
    'Map.Title': i18n._(msg({ message: 'Map', comment: "the map's accessible name" })),
    'Marker.Title': i18n._(msg({ message: 'Map marker', comment: 'a pin on the map' })),
    'ScaleControl.Meters': 'm',
    'ScaleControl.Kilometers': 'km',
  }
}
