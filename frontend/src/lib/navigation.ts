import type SvgIcon from '@mui/material/SvgIcon'

/**
 * An entry of the drawer, which each area lists in its own navigation.ts and the shell shows in
 * order; it shows to those who may open its page (`lib/routes.ts`).
 */
export interface NavigationEntry {
  to: string
  /** i18n key of the entry's label. */
  label: string
  /** i18n key of the drawer section the entry belongs to. */
  section: string
  icon: typeof SvgIcon
}

/** An entry of the header's plus menu: a creation, shown to those who may open its page. */
export interface AddMenuEntry {
  to: string
  /** i18n key of the entry's label. */
  label: string
  icon: typeof SvgIcon
}
