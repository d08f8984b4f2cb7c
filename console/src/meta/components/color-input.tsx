import { ColorPicker } from 'antd';
import type { FC } from 'react';

/** #RRGGBB colour, upper case, as the `color` pattern expects. */
const ColorInput: FC<{ value?: string | null; onChange?: (v: string | null) => void; disabled?: boolean }> = ({ value, onChange, disabled }) => (
  <ColorPicker
    disabled={disabled}
    showText
    allowClear
    format="hex"
    disabledAlpha
    value={value || null}
    onChange={(c) => onChange?.(c.toHexString().toUpperCase())}
    onClear={() => onChange?.(null)}
  />
);

export default ColorInput;
