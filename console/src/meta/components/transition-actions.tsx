import { Alert, App, Button, Form, Modal, Space, Tooltip } from 'antd';
import { useState, type FC } from 'react';
import { transitionAllowed, transitionInputs, transitionLabelKey, type FieldDef, type ResolvedTransition, type ResourceDef } from '@rti/metadata/browser';
import { MenuIcon } from '../../components/layout/menu-icon';
import { request } from '../../providers/http-client';
import { fromFormValues } from '../lib/form-values';
import { fieldRules } from '../lib/rules';
import { useMetaT } from '../hooks/use-meta';
import { FieldInput } from './field-input';
// the reference fields' widgets, the refs picker among them (registered by their modules: ./field-widgets)
import './refs-input';
import { useOptionalShell } from '../../providers/shell-context';
import { guardBlockingField, stepUser } from '../lib/step-guard';

/**
 * The workflow steps a row may take now (metadata `transitions`): one button per step whose
 * `from` holds the row's status (the caller's codes were checked once per screen, see
 * useTransitions). A step with inputs or `confirm` opens a dialog: its inputs, validated like
 * fields, and for `confirm` SPEC §5's warning that an executed operation cannot be undone.
 */
export const TransitionButtons: FC<{
  resource: ResourceDef;
  record: Record<string, unknown> & { id?: unknown };
  steps: ResolvedTransition[];
  onChanged: () => void;
  size?: 'small' | 'middle';
}> = ({ resource, record, steps, onChanged, size = 'small' }) => {
  const { t, fieldLabel } = useMetaT();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [active, setActive] = useState<ResolvedTransition | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const user = stepUser(useOptionalShell()?.user);
  const allowed = steps.filter((s) => transitionAllowed(s, record));
  if (record.id === undefined || record.id === null || !allowed.length) return null;

  // a step writes its inputs although they are read-only in forms (e.g. an alert's remark)
  const inputsOf = (step: ResolvedTransition): FieldDef[] => transitionInputs(resource, step).map(({ field }) => ({ ...field, readOnly: false }));
  const label = (step: ResolvedTransition) => t(transitionLabelKey(step));
  const title = String(record[resource.titleField] ?? `#${String(record.id)}`);

  const run = async (step: ResolvedTransition, values: Record<string, unknown>) => {
    setBusy(step.name);
    try {
      await request(step.path, { id: record.id, ...values });
      void message.success(t('meta.stepDone', { step: label(step), title }));
      setActive(null);
      onChanged();
    } catch (e) {
      // the server's refusal names the status it found and the one the step needs
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(null);
    }
  };
  // `confirmCount`: the dialog states what the step will do to that many (e.g. lines marked missing)
  const countOf = (step: ResolvedTransition): number | undefined => {
    const n = step.confirmCount ? Number(record[step.confirmCount.field]) : NaN;
    return Number.isFinite(n) && n > 0 ? n : undefined;
  };
  const start = (step: ResolvedTransition) => {
    if (!step.confirm && countOf(step) === undefined && !inputsOf(step).length) return void run(step, {});
    form.resetFields();
    setActive(step);
  };
  const confirm = async () => {
    if (!active) return;
    const fields = inputsOf(active);
    const values = (await form.validateFields()) as Record<string, unknown>;
    await run(active, fromFormValues(fields, values, 'create'));
  };

  return (
    <>
      {allowed.map((step) => {
        // guard.notUser: the user its field records may not take the step (the applicant does not audit)
        const blockedBy = guardBlockingField(resource, step, record, user);
        const f = blockedBy ? resource.fields.find((x) => x.name === blockedBy) : undefined;
        const button = (
          <Button
            key={step.name}
            type={size === 'small' ? 'link' : 'default'}
            size={size}
            danger={step.danger}
            icon={step.icon ? <MenuIcon name={step.icon} /> : undefined}
            loading={busy === step.name}
            disabled={Boolean(blockedBy)}
            onClick={() => start(step)}
            data-testid={`meta-step-${step.name}`}
          >
            {label(step)}
          </Button>
        );
        return blockedBy ? (
          <Tooltip key={step.name} title={t('meta.stepGuardNotUser', { step: label(step), field: f ? fieldLabel(f) : blockedBy })}>
            <span data-testid={`meta-step-${step.name}-guarded`}>{button}</span>
          </Tooltip>
        ) : (
          button
        );
      })}
      <Modal
        open={active !== null}
        title={active ? t('meta.stepConfirmTitle', { step: label(active), title }) : undefined}
        okText={active ? label(active) : undefined}
        // the dismiss button never repeats the step's own label: Close beside a Cancel step
        // (cancelling an order), Cancel beside a Close step (closing a receipt)
        cancelText={active && label(active) === t('meta.close') ? t('meta.cancel') : t('meta.close')}
        cancelButtonProps={{ 'data-testid': 'meta-step-dismiss' } as never}
        okButtonProps={{ danger: active?.danger, loading: busy !== null, 'data-testid': 'meta-step-ok' } as never}
        onOk={() => void confirm().catch(() => undefined)}
        onCancel={() => setActive(null)}
        destroyOnHidden
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          {active && countOf(active) !== undefined && (
            <Alert type="warning" showIcon message={t(active.confirmCount!.message, { count: countOf(active) })} data-testid="meta-step-count" />
          )}
          {active?.confirm && <Alert type="warning" showIcon message={t('meta.irreversible')} data-testid="meta-step-warning" />}
          {active && inputsOf(active).length > 0 && (
            <Form form={form} layout="vertical" preserve={false}>
              {inputsOf(active).map((f) => (
                <Form.Item key={f.name} name={f.name} label={fieldLabel(f)} rules={fieldRules(f, fieldLabel(f), 'create', t)} required={f.required}>
                  <FieldInput field={f} mode="create" />
                </Form.Item>
              ))}
            </Form>
          )}
        </Space>
      </Modal>
    </>
  );
};
