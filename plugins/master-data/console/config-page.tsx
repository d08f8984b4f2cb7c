import { useEffect, useMemo, useState } from 'react';
import { App, Button, Card, Form, Spin } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { request } from '../../../console/src/plugin-api';
import { useMetadata } from '../../../console/src/providers/metadata-context';
import { MetaForm } from '../../../console/src/meta/components/meta-form';
import { formFields } from '../../../console/src/meta/lib/fields';
import { fromFormValues, toFormValues } from '../../../console/src/meta/lib/form-values';

/** The organisation's settings: one form over the `config` resource's fields, saved with /config/update. */
export default function ConfigPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const resource = useMetadata().resources.config;
  const fields = useMemo(() => formFields(resource, 'edit'), [resource]);
  const [form] = Form.useForm();
  const [record, setRecord] = useState<Record<string, unknown>>();
  const [busy, setBusy] = useState(true);

  useEffect(() => {
    request<Record<string, unknown>>('/config')
      .then((row) => {
        setRecord(row);
        form.setFieldsValue(toFormValues(fields, row, 'edit'));
      })
      .catch((e: unknown) => void message.error(e instanceof Error ? e.message : String(e)))
      .finally(() => setBusy(false));
  }, [fields, form, message]);

  const save = async (values: Record<string, unknown>) => {
    setBusy(true);
    try {
      setRecord(await request<Record<string, unknown>>('/config/update', fromFormValues(fields, values, 'edit')));
      void message.success(t('masterData.configSaved'));
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      title={t('menu.config')}
      data-testid="config-page"
      extra={
        <Button type="primary" icon={<SaveOutlined />} onClick={() => form.submit()} loading={busy} data-testid="config-save">
          {t('masterData.save')}
        </Button>
      }
    >
      <Spin spinning={busy}>
        <MetaForm resource={resource} fields={fields} mode="edit" record={record} formProps={{ form, layout: 'vertical', onFinish: save }} />
      </Spin>
    </Card>
  );
}
