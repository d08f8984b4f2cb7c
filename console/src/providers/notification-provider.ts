import type { NotificationProvider } from '@refinedev/core';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { MESSAGE_DURATION_S } from '../constants';

/**
 * Refine notifications through antd's App-scoped notification API (3 s, SPEC §9). The API
 * comes from a holder mounted lazily (notification-holder.tsx: antd's notification code is
 * not part of the first page); a notification raised before it is there waits for it.
 */
export function createNotificationProvider(api: Promise<NotificationInstance>): NotificationProvider {
  return {
    open({ key, message, description, type }) {
      void api.then((n) => n[type === 'progress' ? 'info' : type]({ key, message, description, duration: MESSAGE_DURATION_S }));
    },
    close: (key) => void api.then((n) => n.destroy(key)),
  };
}
