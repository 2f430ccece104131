import MenuIcon from '@mui/icons-material/Menu'
import AppBar from '@mui/material/AppBar'
import Box from '@mui/material/Box'
import Divider from '@mui/material/Divider'
import IconButton from '@mui/material/IconButton'
import Stack from '@mui/material/Stack'
import Toolbar from '@mui/material/Toolbar'
import Typography from '@mui/material/Typography'
import useMediaQuery from '@mui/material/useMediaQuery'
import { useTheme } from '@mui/material/styles'
import { visuallyHidden } from '@mui/utils'
import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, Outlet } from 'react-router'
import { APP_LOGO_URL, organizationInfoQuery, whoAmIQuery } from '../../api/queries'
import { LanguageSwitch } from '../../components/LanguageSwitch'
import { startTokenRenewal } from '../../features/account/renewal'
import { HOME_PATH } from '../../lib/paths'
import { AccountMenu } from './AccountMenu'
import { DRAWER_WIDTH, NavigationDrawer } from './NavigationDrawer'
import { OfflineNotice } from './OfflineNotice'

const DRAWER_OPEN_KEY = 'spot.drawerOpen'
const HeaderTools = lazy(() => import('./HeaderTools'))

/** The frame of every signed-in page: header bar, navigation drawer, page. */
export function Shell() {
  const { t } = useTranslation()
  const theme = useTheme()
  const docked = useMediaQuery(theme.breakpoints.up('md'))
  const [dockedOpen, setDockedOpen] = useState(() => localStorage.getItem(DRAWER_OPEN_KEY) !== 'false')
  const [overlayOpen, setOverlayOpen] = useState(false)
  const { data: user, isError } = useQuery(whoAmIQuery)
  const { data: organization } = useQuery(organizationInfoQuery)

  useEffect(() => startTokenRenewal(), [])

  const drawerOpen = docked ? dockedOpen : overlayOpen
  const toggleDrawer = () => {
    if (!docked) return setOverlayOpen(!overlayOpen)
    localStorage.setItem(DRAWER_OPEN_KEY, String(!dockedOpen))
    setDockedOpen(!dockedOpen)
  }
  const userName = user?.displayName ?? (isError ? t('account.notAuthenticated') : '')

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppBar position="fixed" sx={{ zIndex: theme.zIndex.drawer + 1 }}>
        {/* Below md, the bar's gutters and the gaps between its icons shrink so that every control fits
            (390 px on a phone, where the search bar is an icon; 600 px, where it is a field). */}
        <Toolbar sx={{ px: { xs: 1.5, md: 3 } }}>
          <IconButton color="inherit" edge="start" aria-label={t('nav.toggle')} aria-expanded={drawerOpen} onClick={toggleDrawer} sx={{ mr: 1 }}>
            <MenuIcon />
          </IconButton>
          <Stack
            component={RouterLink}
            to={HOME_PATH}
            direction="row"
            spacing={1.5}
            sx={{ alignItems: 'center', color: 'inherit', textDecoration: 'none', minWidth: 0 }}
          >
            <Box
              component="img"
              src={APP_LOGO_URL}
              alt=""
              sx={{ height: 32, width: 32, flexShrink: 0, bgcolor: 'common.white', borderRadius: 1, p: 0.25 }}
            />
            {/* Below md the logo stands for it; the name stays the link's name. */}
            <Typography variant="h6" component="span" noWrap sx={{ fontWeight: 600, flexShrink: 0, [theme.breakpoints.down('md')]: visuallyHidden }}>
              {organization?.applicationName ?? t('app.name')}
            </Typography>
            {organization?.customerName && (
              <>
                <Divider orientation="vertical" flexItem sx={{ borderColor: 'rgba(255,255,255,0.4)', my: 1, display: { xs: 'none', md: 'block' } }} />
                <Typography component="span" noWrap sx={{ display: { xs: 'none', md: 'block' } }}>
                  {organization.customerName}
                </Typography>
              </>
            )}
          </Stack>
          <Box sx={{ flexGrow: 1, minWidth: { xs: 8, md: 16 } }} />
          {/* Badges stay under the phone's unfolded search field, which covers the bar (z-index 1). */}
          <Stack direction="row" spacing={{ xs: 0, md: 1 }} sx={{ alignItems: 'center', '& .MuiBadge-badge': { zIndex: 'auto' } }}>
            <Suspense fallback={null}>
              <HeaderTools user={user} />
            </Suspense>
            {/* Where the bar is wide enough; the account menu names the user everywhere. */}
            <Typography variant="body2" noWrap sx={{ display: { xs: 'none', lg: 'block' } }}>
              {userName}
            </Typography>
            <LanguageSwitch onDark />
            <AccountMenu user={user} />
          </Stack>
        </Toolbar>
      </AppBar>
      <NavigationDrawer user={user} open={drawerOpen} docked={docked} onClose={() => setOverlayOpen(false)} />
      <Box
        component="main"
        sx={{
          flexGrow: 1,
          minWidth: 0,
          p: { xs: 2, md: 4 },
          ml: docked && !dockedOpen ? `-${DRAWER_WIDTH}px` : 0,
          transition: theme.transitions.create('margin', { duration: theme.transitions.duration.shortest }),
        }}
      >
        <Toolbar />
        <OfflineNotice />
        <Outlet />
      </Box>
    </Box>
  )
}
