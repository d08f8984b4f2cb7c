/**
 * "Public link" on the detail page of a resource declaring `publicLink`: the record's page
 * without signing in, as a QR code to show or print and a link to copy or open, and a renewal
 * that makes every code printed before stop working. Offered to users who may call the
 * resource's `<prefix>/info/link` (server resources/public-links.ts).
 */
import { LinkOutlined } from '@ant-design/icons';
import { App, Button, Modal, Popconfirm, QRCode, Space, Typography } from 'antd';
import { useState, type FC } from 'react';
import { apiCode, resourceApiPrefix, type ResourceDef } from '@rti/metadata/browser';
import { request } from '../../providers/http-client';
import { useOptionalShell } from '../../providers/shell-context';
import { useMetaT } from '../hooks/use-meta';

export const publicLinkPath = (res: ResourceDef): string => `${resourceApiPrefix(res)}/info/link`;

export const PublicLinkButton: FC<{ resource: ResourceDef; id: string | number; title?: string }> = ({ resource, id, title }) => {
  const { t } = useMetaT();
  const { message } = App.useApp();
  const access = useOptionalShell()?.access;
  const [link, setLink] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!resource.publicLink || !access?.has(apiCode(publicLinkPath(resource)))) return null;

  const ask = async (renew: boolean) => {
    setBusy(true);
    try {
      const got = await request<{ path: string }>(publicLinkPath(resource), { id: Number(id), renew });
      setLink(location.origin + got.path);
      if (renew) void message.success(t('meta.publicLink.renewed'));
    } catch (e) {
      void message.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        icon={<LinkOutlined />}
        loading={busy && !link}
        onClick={() => void ask(false) /* ask() reports its own failure */}
        data-testid="meta-public-link"
      >
        {t('meta.publicLink.button')}
      </Button>
      <Modal open={link !== null} title={t('meta.publicLink.title', { name: title ?? '' })} onCancel={() => setLink(null)} footer={null} destroyOnHidden>
        {link && (
          <Space direction="vertical" align="center" style={{ width: '100%' }} data-testid="meta-public-link-dialog">
            <QRCode value={link} size={200} bordered={false} />
            <Typography.Text type="secondary">{t('meta.publicLink.hint')}</Typography.Text>
            <Typography.Paragraph copyable={{ text: link }} style={{ wordBreak: 'break-all', marginBottom: 0 }}>
              <a href={link} target="_blank" rel="noreferrer" data-testid="meta-public-link-url">
                {link}
              </a>
            </Typography.Paragraph>
            <Popconfirm
              title={t('meta.publicLink.renewQuestion')}
              okText={t('meta.publicLink.renew')}
              cancelText={t('meta.cancel')}
              onConfirm={() => void ask(true)}
            >
              <Button danger size="small" loading={busy} data-testid="meta-public-link-renew">
                {t('meta.publicLink.renew')}
              </Button>
            </Popconfirm>
          </Space>
        )}
      </Modal>
    </>
  );
};
