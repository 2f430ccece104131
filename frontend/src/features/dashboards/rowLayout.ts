import type { SxProps, Theme } from '@mui/material/styles'

/**
 * A row of a progress list: its parts one under the other on a phone, side by side in columns from a
 * tablet on (name, completion, levels or paths), so the rows' figures line up.
 */
export const ROW_LAYOUT: SxProps<Theme> = {
  display: 'grid',
  gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 2fr) minmax(140px, 1.5fr) minmax(0, 2fr)' },
  alignItems: { md: 'center' },
  columnGap: 3,
  rowGap: 1,
  px: 2,
  py: 1.5,
  borderTop: 1,
  borderColor: 'divider',
  '&:first-of-type': { borderTop: 0 },
}
