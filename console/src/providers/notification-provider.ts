import type { NotificationProvider } from '@refinedev/core';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { MESSAGE_DURATION_S } from '../constants';

/** Refine notifications through antd's App-scoped notification API (3 s, SPEC §9). */
export function createNotificationProvider(api: NotificationInstance): NotificationProvider {
  return {
    open({ key, message, description, type }) {
      if (type === 'progress') {
        api.info({ key, message, description, duration: MESSAGE_DURATION_S });
        return;
      }
      api[type]({ key, message, description, duration: MESSAGE_DURATION_S });
    },
    close: (key) => api.destroy(key),
  };
}
