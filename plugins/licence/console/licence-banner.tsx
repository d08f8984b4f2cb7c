import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Tag, Tooltip } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { request, useShell } from '@rti/console/plugin-api';

interface LicenceStatus {
  state: 'none' | 'invalid' | 'attention';
  level: 'warning' | 'error';
  message: string;
}

/**
 * Header banner for platform administrators (issue 23): no licence installed (what is not
 * enforced), a licence that does not apply, one about to expire or nearly used up — said before
 * it blocks anything; a click opens the licence page that fixes it. Nothing for other users.
 */
export default function LicenceBanner() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useShell();
  const [status, setStatus] = useState<LicenceStatus | null>(null);
  useEffect(() => {
    if (!user.sysOrgUser) return;
    let live = true;
    request<LicenceStatus | null>('/licence/status', {}).then(
      (s) => live && setStatus(s),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [user.sysOrgUser]);
  // a phone's header has no room for words: the icon says it, the tooltip tells
  const narrow = typeof window !== 'undefined' && window.matchMedia?.('(max-width: 767px)').matches;
  if (!status) return null;
  const target = status.state === 'attention' ? '/licence/update' : '/licence/import';
  return (
    <Tooltip title={status.message}>
      <Tag
        color={status.level}
        icon={<SafetyCertificateOutlined />}
        style={{ cursor: 'pointer', marginInlineEnd: 0 }}
        onClick={() => void navigate(target)}
        data-testid="licence-banner"
        role="alert"
        aria-label={status.message}
      >
        {narrow ? null : t(`licence.banner.${status.state}`)}
      </Tag>
    </Tooltip>
  );
}
