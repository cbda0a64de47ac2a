// A code an operator reads out or types back (a confirmation code, a device id, a player link): in a
// monospace font whose zero is slashed and whose 1, l and I differ, each digit tinted apart from the
// letters, and each separator (_ - . /) marked, so an underscore is not lost under a link's line and
// "0O" or "1l" are not mistaken on a phone in the field.

const PART = /([0-9]+|[_\-./:=?&]+|[^0-9_\-./:=?&]+)/g

/** The runs of a code: digits, separators and the rest, each with its kind. */
export function codeRuns(text: string): { text: string; kind: 'digit' | 'mark' | 'letter' }[] {
  return (text.match(PART) ?? []).map((run) => ({
    text: run,
    kind: /^[0-9]/.test(run) ? 'digit' : /^[_\-./:=?&]/.test(run) ? 'mark' : 'letter',
  }))
}

export function Code({ children, className }: { children: string; className?: string }) {
  return (
    <code className={['ops-code', className].filter(Boolean).join(' ')} translate="no">
      {codeRuns(children).map((run, i) =>
        run.kind === 'letter' ? (
          run.text
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the runs of one string never move
          <span key={i} className={`ops-code__${run.kind}`}>
            {run.text}
          </span>
        ),
      )}
    </code>
  )
}
