/**
 * sqlite3 as handed to Sequelize, with a busy timeout on every connection. Sequelize opens
 * one connection per transaction and runs no connect hooks for SQLite, so the driver is the
 * one place where each new connection can be told to wait for the write lock instead of
 * failing at once with SQLITE_BUSY.
 */
import sqlite3 from 'sqlite3';

export const BUSY_TIMEOUT_MS = 15000;

class WaitingDatabase extends sqlite3.Database {
  constructor(filename: string, mode?: number, callback?: (err: Error | null) => void) {
    super(filename, mode ?? sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE, (err: Error | null) => {
      if (!err) this.configure('busyTimeout', BUSY_TIMEOUT_MS);
      callback?.(err);
    });
  }
}

export const sqliteDriver = { ...sqlite3, Database: WaitingDatabase };
