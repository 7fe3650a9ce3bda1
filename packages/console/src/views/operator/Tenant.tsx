import { useCallback, useState } from 'react'
import { type AdminTenantDetail, PIN_STATES } from '../../api/admin'
import type { Api } from '../../api/client'
import { ErrorNote } from '../../components/common'
import { useLoad } from '../../components/use-load'
import { formatBytes, formatDate } from '../../format'
import { formatLimit, LIMITS } from './format'
import { LimitsForm } from './LimitsForm'
import { KeysRevocation, Suspension } from './TenantActions'
import { TenantStatus } from './Tenants'
import { TenantWebhooks } from './TenantWebhooks'

/** One tenant: its figures and limits, and the operator's actions on it. */
export function TenantView({ api, id }: { api: Api; id: string }) {
  const [tenant, setTenant] = useState<AdminTenantDetail | null>(null)
  const [error, setError] = useState<unknown>(null)
  /** What the last action did, shown (and announced politely) where it was done. */
  const [done, setDone] = useState<{ block: 'limits' | 'suspension' | 'keys'; message: string } | null>(null)
  const path = `admin/v1/tenants/${encodeURIComponent(id)}`

  const load = useLoad(
    useCallback(async () => {
      setTenant((await api.get<{ data: AdminTenantDetail }>(path)).data)
      // a failure stays shown until a read succeeds, not blinking out while one is under way
      setError(null)
    }, [api, path]),
    setError,
  )

  /** After an action: say what it did and show the tenant as it now is. */
  const changed = (block: NonNullable<typeof done>['block']) => async (message: string) => {
    setDone({ block, message })
    await load()
  }
  const doneIn = (block: NonNullable<typeof done>['block']) => (done?.block === block ? done.message : null)

  const usage = tenant?.account.usage
  const { limits, overrides } = tenant?.account ?? {}

  return (
    <section aria-labelledby="tenant-title">
      <p>
        <a href="#tenants">← All tenants</a>
      </p>
      <h2 id="tenant-title" tabIndex={-1} className="break">
        Tenant {id}
      </h2>
      <ErrorNote error={error} />
      {tenant && usage && limits && overrides && (
        <>
          <dl className="facts">
            <dt>Status</dt>
            <dd>
              <TenantStatus suspension={tenant.suspension} />
              {tenant.suspension && (
                <div className="hint">
                  since {formatDate(tenant.suspension.at)}: {tenant.suspension.reason}
                </div>
              )}
            </dd>
            <dt>Known since</dt>
            <dd>
              {formatDate(tenant.created_at)} (
              {tenant.origin === 'admin' ? 'created by an operator' : 'its first request'})
            </dd>
            <dt>Files</dt>
            <dd>{usage.files.toLocaleString('en')}</dd>
            <dt>Logical bytes</dt>
            <dd>{formatBytes(usage.logical_bytes)}</dd>
            <dt>Contents</dt>
            <dd>{usage.contents.toLocaleString('en')}</dd>
            <dt>Sole bytes</dt>
            <dd>{formatBytes(usage.sole_bytes)}</dd>
            <dt>Shared bytes</dt>
            <dd>{formatBytes(usage.shared_bytes)}</dd>
            <dt>Pin requests</dt>
            <dd>{PIN_STATES.map((state) => `${tenant.pins[state]} ${state}`).join(' · ')}</dd>
            <dt>API keys</dt>
            <dd>
              {tenant.api_keys.active} active of {tenant.api_keys.total}
            </dd>
          </dl>
          <table className="cards">
            <caption>Limits and use</caption>
            <thead>
              <tr>
                <th scope="col">Limit</th>
                <th scope="col">Applies</th>
                <th scope="col">Set for this tenant</th>
                <th scope="col">Used</th>
              </tr>
            </thead>
            <tbody>
              {LIMITS.map(({ name, label }) => (
                <tr key={name}>
                  <th scope="row" data-label="Limit">
                    {label}
                  </th>
                  <td data-label="Applies">{formatLimit(name, limits[name])}</td>
                  <td data-label="Set">{name in overrides ? formatLimit(name, overrides[name]) : 'default'}</td>
                  <td data-label="Used">{name === 'requests_per_minute' ? '—' : usedOf(name, usage)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <LimitsForm
            api={api}
            path={`${path}/limits`}
            overrides={overrides}
            done={doneIn('limits')}
            onSaved={() => changed('limits')('Limits saved: they apply from the tenant’s next request.')}
          />
          <Suspension
            api={api}
            path={path}
            tenant={tenant}
            done={doneIn('suspension')}
            onChanged={changed('suspension')}
          />
          <KeysRevocation api={api} path={path} tenant={tenant} done={doneIn('keys')} onChanged={changed('keys')} />
          <TenantWebhooks api={api} path={path} />
        </>
      )}
    </section>
  )
}

function usedOf(name: (typeof LIMITS)[number]['name'], usage: AdminTenantDetail['account']['usage']): string {
  switch (name) {
    case 'storage_bytes':
      return formatBytes(usage.logical_bytes)
    case 'files':
      return usage.files.toLocaleString('en')
    case 'open_pin_requests':
      return usage.open_pin_requests.toLocaleString('en')
    case 'vectorized_files':
      return usage.vectorized_files.toLocaleString('en')
    default:
      return '—'
  }
}
