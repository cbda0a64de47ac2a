import { useLingui } from '@lingui/react'
import type { ProblemData } from '../../domain/problems'
import { problemText } from '../lib/problem-text'

/** Problems (an order's, an answer's) in the reader's language, one a line. */
export function ProblemList({ problems }: { problems: readonly ProblemData[] }) {
  const { i18n } = useLingui()
  return (
    <ul className="errors">
      {problems.map((problem, i) => (
        // a list that only grows while shown: its place is its identity
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <li key={i}>{problemText(i18n, problem)}</li>
      ))}
    </ul>
  )
}
