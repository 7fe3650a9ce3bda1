import type { Api } from '../../api/client'
import { ErrorNote, Status } from '../../components/common'
import { DenyRuleForm } from '../../components/deny-rules/DenyRuleForm'
import { DenyRuleTable } from '../../components/deny-rules/DenyRuleTable'
import { useDenyRules } from '../../components/deny-rules/use-deny-rules'

/**
 * The operator's own deny rules (compact denylist format, IPIP-383), applied after every configured
 * list, so they win. The server validates a rule; its 400 says what is wrong with the line.
 */
export function DenyRulesView({ api }: { api: Api }) {
  const rules = useDenyRules(api, 'admin/v1/deny-rules')
  return (
    <section aria-labelledby="deny-title">
      <h2 id="deny-title" tabIndex={-1}>
        Deny rules
      </h2>
      <DenyRuleForm onAdd={rules.add} />
      {rules.done && <Status>{rules.done}</Status>}
      <ErrorNote error={rules.error} />
      <DenyRuleTable
        caption="The operator’s deny rules"
        rules={rules.page}
        pager={rules.pager}
        empty={<p>No deny rules of the operator’s own.</p>}
        onRemove={(rule) => void rules.remove(rule)}
      />
    </section>
  )
}
