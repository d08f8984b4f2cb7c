/**
 * Installed licences, newest last (table sys_licence). The platform's licence is the
 * newest row; older rows stay as the history of imports and renewals.
 */
import { DataTypes, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import type { Licence } from './licence-file';

export const LICENCE_TABLE = 'sys_licence';

export const licenceColumns = {
  id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
  licenceNo: { type: DataTypes.STRING(100), allowNull: false },
  organizationId: { type: DataTypes.INTEGER, allowNull: true },
  organizationQuantity: { type: DataTypes.INTEGER, allowNull: false },
  carrierQuantity: { type: DataTypes.INTEGER, allowNull: false },
  hostName: { type: DataTypes.STRING(255), allowNull: false },
  category: { type: DataTypes.INTEGER, allowNull: false },
  effectiveDate: { type: DataTypes.STRING(10), allowNull: false },
  expirationDate: { type: DataTypes.STRING(10), allowNull: true },
  /** the signed file as imported, so the installed licence can be re-verified */
  content: { type: DataTypes.TEXT, allowNull: false },
  installedBy: { type: DataTypes.INTEGER, allowNull: true },
  createdAt: { type: DataTypes.DATE, allowNull: false },
  updatedAt: { type: DataTypes.DATE, allowNull: false },
};

type LicenceRow = Licence & { id: number; content: string; installedBy: number | null; createdAt: Date };

function model(sequelize: Sequelize): ModelStatic<Model<LicenceRow, Partial<LicenceRow>>> {
  return (sequelize.models.SysLicence ??
    sequelize.define('SysLicence', licenceColumns, { tableName: LICENCE_TABLE, freezeTableName: true, timestamps: true })) as ModelStatic<
    Model<LicenceRow, Partial<LicenceRow>>
  >;
}

export interface InstalledLicence {
  licence: Licence;
  content: string;
  installedAt: Date;
}

export function licenceStore(sequelize: Sequelize) {
  const m = model(sequelize);
  return {
    async current(): Promise<InstalledLicence | null> {
      const row = await m.findOne({ order: [['id', 'DESC']] });
      if (!row) return null;
      const r = row.get({ plain: true }) as LicenceRow;
      const licence: Licence = {
        licenceNo: r.licenceNo,
        organizationId: r.organizationId,
        organizationQuantity: r.organizationQuantity,
        carrierQuantity: r.carrierQuantity,
        hostName: r.hostName,
        category: r.category,
        effectiveDate: r.effectiveDate,
        expirationDate: r.expirationDate,
      };
      return { licence, content: r.content, installedAt: new Date(r.createdAt) };
    },
    async install(licence: Licence, content: string, installedBy: number | null): Promise<void> {
      await m.create({ ...licence, content, installedBy });
    },
  };
}
