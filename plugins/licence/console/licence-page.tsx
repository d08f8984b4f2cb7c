import { useCallback, useEffect, useState, type ComponentType } from 'react';
import { Alert, App, Button, Card, Descriptions, Empty, Space, Spin, Tag, Upload } from 'antd';
import { CheckCircleOutlined, CloudUploadOutlined, FileTextOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Guarded, request } from '@rti/console/plugin-api';
import { useMetadata } from '@rti/console/plugin-api';
import type { Licence } from '../server/licence-file';

type Mode = 'verify' | 'import' | 'update';

/** The verify answer: the signed licence's terms plus what this server makes of them. */
interface LicenceInfo extends Licence {
  remainingDays: number | null;
  valid: boolean;
  reason: string | null;
  installedAt: string | null;
  usage: { organizations: number; carriers: number };
}

/** Licence screens: the installed licence; a file can be checked (dry run), imported or used to renew. */
function LicencePage({ mode }: { mode: Mode }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const categories = useMetadata().enums.licenceCategory ?? [];
  const [installed, setInstalled] = useState<LicenceInfo | null>(null);
  const [checked, setChecked] = useState<LicenceInfo | null>(null);
  const [content, setContent] = useState<string>();
  const [fileName, setFileName] = useState<string>();
  const [busy, setBusy] = useState(true);

  const run = useCallback(
    async (fn: () => Promise<void>) => {
      setBusy(true);
      try {
        await fn();
      } catch (e) {
        void message.error(e instanceof Error ? e.message : String(e));
      } finally {
        setBusy(false);
      }
    },
    [message],
  );
  const reload = useCallback(() => run(async () => setInstalled(await request<LicenceInfo | null>('/licence/verify'))), [run]);
  useEffect(() => void reload(), [reload]);

  const check = () => run(async () => setChecked(await request<LicenceInfo>('/licence/verify', { content })));
  const install = () =>
    run(async () => {
      setInstalled(await request<LicenceInfo>(mode === 'update' ? '/licence/update' : '/licence/import', { content }));
      setChecked(null);
      setContent(undefined);
      setFileName(undefined);
      void message.success(t(mode === 'update' ? 'licence.updated' : 'licence.imported'));
    });

  const category = (v: number) => {
    const e = categories.find((c) => c.value === v);
    return e ? t(e.label) : String(v);
  };
  const details = (l: LicenceInfo, testId: string) => (
    <>
      <Alert type={l.valid ? 'success' : 'error'} showIcon message={l.valid ? t('licence.valid') : l.reason} style={{ marginBottom: 16 }} />
      <Descriptions column={2} size="small" bordered data-testid={testId}>
        <Descriptions.Item label={t('licence.licenceNo')}>{l.licenceNo}</Descriptions.Item>
        <Descriptions.Item label={t('licence.category')}>
          <Tag>{category(l.category)}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('licence.organizationQuantity')}>
          {l.usage.organizations} / {l.organizationQuantity}
        </Descriptions.Item>
        <Descriptions.Item label={t('licence.carrierQuantity')}>
          {l.usage.carriers} / {l.carrierQuantity}
        </Descriptions.Item>
        <Descriptions.Item label={t('licence.hostName')}>{l.hostName}</Descriptions.Item>
        <Descriptions.Item label={t('licence.organizationId')}>{l.organizationId ?? '-'}</Descriptions.Item>
        <Descriptions.Item label={t('licence.effectiveDate')}>{l.effectiveDate}</Descriptions.Item>
        <Descriptions.Item label={t('licence.expirationDate')}>{l.expirationDate ?? t('licence.never')}</Descriptions.Item>
        <Descriptions.Item label={t('licence.remainingDays')}>{l.remainingDays ?? t('licence.never')}</Descriptions.Item>
      </Descriptions>
    </>
  );

  return (
    <Spin spinning={busy}>
      <Card title={t('licence.installed')} style={{ marginBottom: 16 }}>
        {installed ? details(installed, 'licence-installed') : !busy && <Empty description={t('licence.none')} />}
      </Card>
      <Card title={t(`licence.${mode}Title`)}>
        <Space wrap>
          <Upload
            accept=".lic,.json,.txt"
            maxCount={1}
            showUploadList={false}
            beforeUpload={(file) => {
              void file.text().then((text) => {
                setContent(text);
                setFileName(file.name);
                setChecked(null);
              });
              return false;
            }}
          >
            <Button icon={<FileTextOutlined />} data-testid="licence-file">
              {fileName ?? t('licence.chooseFile')}
            </Button>
          </Upload>
          <Button icon={<CheckCircleOutlined />} disabled={!content} onClick={() => void check()} data-testid="licence-check">
            {t('licence.check')}
          </Button>
          {mode !== 'verify' && (
            <Guarded call={mode === 'update' ? '/licence/update' : '/licence/import'}>
              <Button
                type="primary"
                icon={<CloudUploadOutlined />}
                disabled={!content || (mode === 'update' && !installed)}
                onClick={() => void install()}
                data-testid="licence-install"
              >
                {t(mode === 'update' ? 'licence.update' : 'licence.import')}
              </Button>
            </Guarded>
          )}
        </Space>
        {checked && <div style={{ marginTop: 16 }}>{details(checked, 'licence-checked')}</div>}
      </Card>
    </Spin>
  );
}

export const pages: Record<Mode, ComponentType> = {
  verify: () => <LicencePage mode="verify" />,
  import: () => <LicencePage mode="import" />,
  update: () => <LicencePage mode="update" />,
};
