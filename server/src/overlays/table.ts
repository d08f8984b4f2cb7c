/** The overlay table: one row per resource an administrator changed (a system table, not a resource). */
import { DataTypes, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import { registerMigration } from '../db/migrations';

export const OVERLAY_TABLE = 'sys_metadata_overlay';

export interface OverlayRow {
  resource: string;
  /** JSON of the ResourceOverlay */
  doc: string;
  updatedBy: string | null;
  updatedAt?: Date;
}

const columns = {
  resource: { type: DataTypes.STRING(100), primaryKey: true, allowNull: false },
  doc: { type: DataTypes.TEXT, allowNull: false },
  updatedBy: { type: DataTypes.STRING(100), allowNull: true },
  updatedAt: { type: DataTypes.DATE, allowNull: false },
};

registerMigration({
  name: '2026-11-23-metadata-overlay',
  async up({ queryInterface: qi }) {
    await qi.createTable(OVERLAY_TABLE, columns);
  },
  async down({ queryInterface: qi }) {
    await qi.dropTable(OVERLAY_TABLE);
  },
});

export type OverlayModel = ModelStatic<Model<OverlayRow, OverlayRow>>;

export function defineOverlayModel(sequelize: Sequelize): OverlayModel {
  return (
    (sequelize.models[OVERLAY_TABLE] as OverlayModel | undefined) ??
    sequelize.define<Model<OverlayRow, OverlayRow>>(OVERLAY_TABLE, columns, { tableName: OVERLAY_TABLE, timestamps: true, createdAt: false })
  );
}
