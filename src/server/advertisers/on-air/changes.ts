// What the schedule shows of campaigns changes when a campaign moves (approved, paused, resumed,
// cancelled, rejected) or its plays are reserved or freed. Those writes bump this number; the
// schedule's kept reads of ad plays (on-air.ts) made before the bump are not used again, so a change
// made through this server shows at the next fetch. Another instance's changes show within the kept
// reads' lifetime (one second), as its sold slots do (player/playout-cache.ts).
let generation = 0

export const airChanged = (): void => {
  generation++
}

export const airGeneration = (): number => generation
