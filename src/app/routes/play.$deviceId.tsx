import { createFileRoute } from '@tanstack/react-router'
import { PlayerPage } from '../player/player-page'

// The billboard's player, its own route and chunk (never on the shop's first screen).
export const Route = createFileRoute('/play/$deviceId')({
  component: PlayerRoute,
})

function PlayerRoute() {
  const { deviceId } = Route.useParams()
  return <PlayerPage deviceId={deviceId} />
}
