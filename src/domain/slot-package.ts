// catalogue-format: how often a sold shout plays in its slot and how long each play lasts,
// when an event names neither. Apart from schedule.ts so that the wire schemas read them without
// the time rules (and the Temporal polyfill) on the shop's first screen.
export const DEFAULT_PLAYS_PER_SLOT = 4
export const DEFAULT_SECONDS_PER_SHOUT = 15
