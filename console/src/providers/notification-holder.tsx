import { useEffect } from 'react';
import notification from 'antd/es/notification';
import type { NotificationInstance } from 'antd/es/notification/interface';

/** antd's notification API inside the app's ConfigProvider (theme, locale); a lazy chunk (App.tsx). */
export default function NotificationHolder({ onApi }: { onApi: (api: NotificationInstance) => void }) {
  const [api, holder] = notification.useNotification();
  useEffect(() => onApi(api), [api, onApi]);
  return holder;
}
