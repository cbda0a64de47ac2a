import { Trans, useLingui } from '@lingui/react/macro'
import { useId, useState } from 'react'
import { problemsOf } from '../../contract/common'
import type { CatalogueChanges, CataloguePreview } from '../../contract/ops/catalogue'
import { CATALOGUE_KINDS, MAX_CATALOGUE_BYTES, opsCatalogue } from '../../contract/ops/catalogue'
import { callApi } from '../lib/api'
import { problemText } from '../lib/problem-text'
import { useOpsFailure } from './errors'
import { Notice, OpsPage } from './ops-frame'
import './backoffice.css'
import { TableBox } from './table-box'

type Kind = (typeof CATALOGUE_KINDS)[number]

/**
 * Catalogue (admin): upload a catalogue file; the checks of `npm run import` list every
 * problem by JSON path; a clean file shows what it adds and changes, and is applied on confirm (the
 * apply call sends the previewed file's SHA-256, so what is applied is what was previewed).
 */
export function CataloguePage() {
  const { t, i18n } = useLingui()
  const failure = useOpsFailure()
  const inputId = useId()
  const [file, setFile] = useState<{ name: string; text: string } | null>(null)
  const [preview, setPreview] = useState<CataloguePreview | null>(null)
  const [applied, setApplied] = useState<CatalogueChanges | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const listed = preview
    ? problemsOf({ errors: preview.problems, codes: preview.codes, params: preview.params })
    : []

  const choose = async (chosen: File | undefined) => {
    setPreview(null)
    setApplied(null)
    setError(null)
    setFile(null)
    if (!chosen) return
    if (chosen.size > MAX_CATALOGUE_BYTES) {
      setError(t`The file is too large (at most 2 MB).`)
      return
    }
    const text = await chosen.text()
    setFile({ name: chosen.name, text })
    setBusy(true)
    try {
      setPreview(await callApi(opsCatalogue.cataloguePreview, { body: { text } }))
    } catch (e) {
      setError(failure(e))
    } finally {
      setBusy(false)
    }
  }

  const apply = async () => {
    if (!file || !preview) return
    setBusy(true)
    setError(null)
    try {
      const done = await callApi(opsCatalogue.catalogueApply, {
        body: { text: file.text, sha256: preview.sha256 },
      })
      setApplied(done.changes)
      setPreview(null)
    } catch (e) {
      setError(failure(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <OpsPage title={t`Catalogue`}>
      <p>
        <Trans>
          Upload a catalogue file (JSON, the format of <code>npm run import</code>). Nothing changes
          until you apply it.
        </Trans>
      </p>
      <div className="bo-controls">
        <label htmlFor={inputId}>
          <span>
            <Trans>Catalogue file</Trans>
          </span>
        </label>
        <input
          id={inputId}
          type="file"
          accept="application/json,.json"
          onChange={(e) => void choose(e.target.files?.[0])}
          disabled={busy}
        />
      </div>
      {busy ? (
        <p aria-busy="true">
          <Trans>Working…</Trans>
        </p>
      ) : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      {applied ? (
        <Notice tone="success">
          <Trans>The catalogue was applied.</Trans>
        </Notice>
      ) : null}
      {applied ? <Changes changes={applied} /> : null}
      {preview && preview.problems.length > 0 ? (
        <section aria-labelledby="bo-problems">
          <h2 id="bo-problems">
            <Trans>{preview.problems.length} problems: nothing can be applied</Trans>
          </h2>
          <ul className="bo-problems">
            {preview.problems.map((sent, i) => (
              // each by its code in the reader's language (its field, a JSON path, as written)
              <li key={sent}>
                <code>{problemText(i18n, listed[i] ?? { code: sent }, sent)}</code>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {preview?.changes ? (
        <section aria-labelledby="bo-preview">
          <h2 id="bo-preview">
            <Trans>What {file?.name} changes</Trans>
          </h2>
          <Changes changes={preview.changes} />
          <p className="bo-muted">
            SHA-256 <code className="bo-hash">{preview.sha256}</code>
          </p>
          <button type="button" className="ops-button" onClick={apply} disabled={busy}>
            <Trans>Apply this catalogue</Trans>
          </button>
        </section>
      ) : null}
    </OpsPage>
  )
}

function Changes({ changes }: { changes: CatalogueChanges }) {
  const { t } = useLingui()
  const kindLabel: Record<Kind, string> = {
    events: t`Events`,
    devices: t`Billboards`,
    templates: t`Templates`,
    promos: t`Promo codes`,
  }
  return (
    <TableBox>
      <table className="ops-table bo-changes">
        <thead>
          <tr>
            <th scope="col">{t`Kind`}</th>
            <th scope="col">{t`New`}</th>
            <th scope="col">{t`Changed`}</th>
            <th scope="col">{t`Unchanged`}</th>
          </tr>
        </thead>
        <tbody>
          {CATALOGUE_KINDS.map((kind) => (
            <tr key={kind}>
              <th scope="row">{kindLabel[kind]}</th>
              <td>
                <IdList ids={changes[kind].added} />
              </td>
              <td>
                <IdList ids={changes[kind].changed} />
              </td>
              <td>{changes[kind].unchanged.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableBox>
  )
}

function IdList({ ids }: { ids: readonly string[] }) {
  if (ids.length === 0) return <>0</>
  return (
    <>
      {ids.length}: <span className="bo-ids">{ids.join(', ')}</span>
    </>
  )
}
