// The sider's logo (issue 23 "theme"): the small one collapsed, the large one expanded, and the
// other one when an organisation uploaded only one — never bare text beside an uploaded logo.
import { describe, expect, it } from 'vitest';
import { siderLogo } from '../src/providers/org-theme';

describe('sider logo', () => {
  it('is the small logo collapsed and the large one expanded', () => {
    const theme = { smallLogo: '/s.png', largeLogo: '/l.png' };
    expect(siderLogo(theme, true)).toBe('/s.png');
    expect(siderLogo(theme, false)).toBe('/l.png');
  });
  it('falls back to the other logo when only one was uploaded', () => {
    expect(siderLogo({ largeLogo: '/l.png' }, true)).toBe('/l.png');
    expect(siderLogo({ smallLogo: '/s.png' }, false)).toBe('/s.png');
    expect(siderLogo({ smallLogo: '', largeLogo: '' }, false)).toBeUndefined();
    expect(siderLogo(null, true)).toBeUndefined();
  });
});
