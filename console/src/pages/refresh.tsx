import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useNavigate } from '../lib/navigate';
import { Spin } from 'antd';
import { HOME_PATH } from '../constants';
import { safeRedirect } from '../providers/auth-provider';

/** /refresh?redirect=<path>: passes through so the target page mounts afresh. */
export default function RefreshPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  useEffect(() => {
    const to = params.get('redirect');
    navigate(to ? safeRedirect(to) : HOME_PATH, { replace: true });
  }, [params, navigate]);
  return <Spin />;
}
