// What the billboard list shows of a device, apart from the modules that compute times (the location
// step is the flow's first screen and loads no Temporal polyfill).

/** spec §3: city plus stateAbbr, or country when there is no abbreviation, joined by a comma. */
export function cityStateLabel(device: {
  city: string
  stateAbbr?: string | null
  country: string
}): string {
  return `${device.city}, ${device.stateAbbr || device.country}`
}
