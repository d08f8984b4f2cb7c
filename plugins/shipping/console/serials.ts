/** One refused row of `/ship-order-detail/batch/add`: SPEC §8 reason and the translated message. */
export interface BatchAddAnswer {
  added: number;
  failed: Array<{ row: number; sn: string; reason?: number; code: number; message: string }>;
}
