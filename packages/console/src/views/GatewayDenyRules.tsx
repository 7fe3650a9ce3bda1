import type { Api } from '../api/client'
import { ErrorNote, Status } from '../components/common'
import { DenyRuleForm } from '../components/deny-rules/DenyRuleForm'
import { DenyRuleTable } from '../components/deny-rules/DenyRuleTable'
import { useDenyRules } from '../components/deny-rules/use-deny-rules'

/**
 * The tenant's own deny list (`/v3/gateways/deny_rules`): rules in the operator's syntax that refuse
 * content on this tenant's gateway hosts only, beside the domains they apply to.
 */
export function GatewayDenyRulesView({ api }: { api: Api }) {
  const rules = useDenyRules(api, 'v3/gateways/deny_rules')
  return (
    <section aria-labelledby="gateway-deny-title">
      <h2 id="gateway-deny-title" tabIndex={-1}>
        Gateway deny rules
      </h2>
      <p className="hint">
        Content your own gateways refuse, whoever pinned it: your dedicated gateway names and verified custom domains (
        <a href="#domains">Gateways</a>
        ). The operator’s deny lists apply everywhere besides.
      </p>
      <DenyRuleForm onAdd={rules.add} />
      {rules.done && <Status>{rules.done}</Status>}
      <ErrorNote error={rules.error} />
      <DenyRuleTable
        caption="Your gateways’ deny rules"
        rules={rules.page}
        pager={rules.pager}
        empty={
          <div>
            <p>No deny rules yet: your gateways serve every CID they can find.</p>
            <p>
              A rule such as <code>/ipfs/CID</code> makes your gateways answer <strong>410 Gone</strong> for that
              content (or the status of its <code>gateway_status:NNN</code> hint), with a page saying so in a browser,
              from the next request. It changes nothing on another account’s gateways or on the shared public gateway,
              and it deletes no file: remove the rule and the content is served again.
            </p>
          </div>
        }
        onRemove={(rule) => void rules.remove(rule)}
      />
    </section>
  )
}
