/** The run record of /task-config/run and /task-config/run/list (server/runner.ts). */
export interface TaskRun {
  id: number;
  taskId: number;
  via: 'schedule' | 'manual';
  startedAt: string;
  finishedAt: string | null;
  status: 'running' | 'succeeded' | 'empty' | 'skipped' | 'failed';
  error: string | null;
  messageId: string | null;
  outboxFile: string | null;
  recipients: string[];
  attachment: string | null;
  rowCount: number | null;
}

export const STATUS_COLOR: Record<TaskRun['status'], string> = {
  running: 'processing',
  succeeded: 'success',
  empty: 'default',
  skipped: 'warning',
  failed: 'error',
};
