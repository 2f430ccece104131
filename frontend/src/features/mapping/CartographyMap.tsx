import CenterFocusStrong from '@mui/icons-material/CenterFocusStrong'
import ZoomIn from '@mui/icons-material/ZoomIn'
import ZoomOut from '@mui/icons-material/ZoomOut'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import Paper from '@mui/material/Paper'
import Skeleton from '@mui/material/Skeleton'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { alpha } from '@mui/material/styles'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router'
import { TransformComponent, TransformWrapper, useControls, useTransformContext, useTransformEffect } from 'react-zoom-pan-pinch'
import { type FunctionForecast, outlookFill } from '../../components/dashboards/CoverageForecast'
import { functionPath, subjectsAtPath } from '../../lib/paths'
import { type Cartography, cartographyImageQuery, type Zone, zonesQuery } from './api'
import { usePanSafeClick } from './zoneClick'

/**
 * Pan and zoom of the map (spec 1 §9). `step` is the zoom buttons' step; the wheel's is per pixel of
 * wheel travel (the library multiplies it by the event's deltaY, 100 for a mouse notch), so that a
 * notch zooms by 0.15 and a touchpad's small moves by a little.
 */
export const MAP_ZOOM = { min: 0.1, max: 2, initial: 0.3, step: 0.5, wheelStepPerPixel: 0.0015 }

const zoneTarget = (zone: Zone) => (zone.type === 'function' ? functionPath(zone.itemId) : subjectsAtPath(zone.itemId))

interface CartographyMapProps {
  cartography: Cartography
  /** The activity or function to outline, e.g. while the pointer is over it in the side lists. */
  highlighted: number | undefined
  /** Each function's coverage forecast, when its zone shows its outlook (managers; see CoveragePanel). */
  coverage?: ReadonlyMap<number, FunctionForecast>
}

/** The cartography's image, zoomable and pannable, with its clickable zones drawn over it. */
export function CartographyMap({ cartography, highlighted, coverage }: CartographyMapProps) {
  const { t } = useTranslation()
  const { data: image, isError } = useQuery(cartographyImageQuery(cartography.id))
  const { data: zones = [] } = useQuery(zonesQuery(cartography.id))
  const width = cartography.imageWidth
  const height = cartography.imageHeight

  return (
    <Paper
      variant="outlined"
      sx={{ position: 'relative', overflow: 'hidden', height: { xs: 420, md: 'calc(100vh - 230px)' }, minHeight: 420, bgcolor: 'grey.100' }}
    >
      {isError ? (
        <Typography color="text.secondary" sx={{ p: 4, textAlign: 'center' }}>
          {t('mapping.cartography.imageError')}
        </Typography>
      ) : !image ? (
        <Skeleton variant="rectangular" sx={{ width: '100%', height: '100%' }} role="progressbar" aria-label={t('common.loading')} />
      ) : (
        <TransformWrapper
          minScale={MAP_ZOOM.min}
          maxScale={MAP_ZOOM.max}
          initialScale={MAP_ZOOM.initial}
          smooth
          wheel={{ step: MAP_ZOOM.wheelStepPerPixel }}
          centerOnInit
          // The plan follows the pointer and stops where it is let go (no throw), inside its frame.
          limitToBounds
          panning={{ velocityDisabled: true }}
          doubleClick={{ disabled: true }}
        >
          <ZoomControls />
          <TransformComponent wrapperStyle={{ width: '100%', height: '100%', cursor: 'grab' }}>
            <Box
              role="group"
              aria-label={t('mapping.cartography.mapLabel', { name: cartography.name })}
              sx={{ position: 'relative', width, height }}
            >
              <Box component="img" src={image} alt={cartography.name} width={width} height={height} draggable={false} sx={{ display: 'block' }} />
              {zones.map((zone) => (
                <ZoneLink
                  key={zone.id}
                  zone={zone}
                  highlighted={zone.itemId === highlighted}
                  forecast={zone.type === 'function' ? coverage?.get(zone.itemId) : undefined}
                />
              ))}
            </Box>
          </TransformComponent>
        </TransformWrapper>
      )}
    </Paper>
  )
}

function ZoneLink({ zone, highlighted, forecast }: { zone: Zone; highlighted: boolean; forecast: FunctionForecast | undefined }) {
  const { t } = useTranslation()
  const panSafe = usePanSafeClick()
  const { x, y, width, height } = zone.rectangle
  const label = forecast
    ? t('mapping.cartography.coverage.zone', {
        name: zone.itemName,
        outlook: t(`coverageForecast.outlooks.${forecast.outlook}`),
        valid: forecast.points[0].valid,
        minimum: forecast.minimum,
      })
    : zone.type === 'function'
      ? t('mapping.cartography.zoneFunction', { name: zone.itemName })
      : t('mapping.cartography.zoneActivity', { name: zone.itemName })
  return (
    <Tooltip title={label} followCursor>
      <Box
        component={RouterLink}
        to={zoneTarget(zone)}
        aria-label={label}
        data-outlook={forecast?.outlook}
        {...panSafe}
        sx={(theme) => {
          const colour = zone.type === 'function' ? theme.palette.accent.main : theme.palette.primary.main
          if (forecast) {
            // The outlook's colour and pattern, its border thicker while outlined from the side lists.
            return {
              position: 'absolute',
              left: x,
              top: y,
              width,
              height,
              border: `${highlighted ? 16 : 8}px solid`,
              borderRadius: 1,
              ...outlookFill(theme, forecast.outlook, { strength: 0.25, unit: 6 }),
              transition: theme.transitions.create(['border-width'], { duration: theme.transitions.duration.shortest }),
              '&:hover, &:focus-visible': { borderWidth: 16, outline: `6px solid ${theme.palette.text.primary}`, outlineOffset: 4 },
            }
          }
          return {
            position: 'absolute',
            left: x,
            top: y,
            width,
            height,
            border: `3px solid ${highlighted ? colour : 'transparent'}`,
            bgcolor: highlighted ? alpha(colour, 0.18) : 'transparent',
            borderRadius: 1,
            transition: theme.transitions.create(['background-color', 'border-color'], { duration: theme.transitions.duration.shortest }),
            '&:hover, &:focus-visible': { borderColor: colour, bgcolor: alpha(colour, 0.18), outline: 'none' },
          }
        }}
      />
    </Tooltip>
  )
}

function ZoomControls() {
  const { t } = useTranslation()
  const { zoomIn, zoomOut, centerView } = useControls()
  const map = useTransformContext()
  const [scale, setScale] = useState(MAP_ZOOM.initial)
  const recentre = () => {
    // A wheel's zoom ends, a tenth of a second after its last notch, by gliding the plan into its
    // bounds at the scale it reached: recentred meanwhile, the plan would stop half-way back.
    if (map.wheelAnimationTimer !== null) clearTimeout(map.wheelAnimationTimer)
    // eslint-disable-next-line react-hooks/immutability -- the library's instance, mutable by design
    map.wheelAnimationTimer = null
    void centerView(MAP_ZOOM.initial)
  }
  useTransformEffect(({ state }) => setScale(state.scale))
  return (
    <Paper
      elevation={2}
      sx={{ position: 'absolute', top: 12, right: 12, zIndex: 2, display: 'flex', alignItems: 'center', px: 0.5, borderRadius: 2 }}
    >
      <Tooltip title={t('mapping.cartography.zoomOut')}>
        <span>
          <IconButton aria-label={t('mapping.cartography.zoomOut')} onClick={() => void zoomOut(MAP_ZOOM.step)} disabled={scale <= MAP_ZOOM.min}>
            <ZoomOut />
          </IconButton>
        </span>
      </Tooltip>
      <Typography variant="body2" aria-live="polite" sx={{ minWidth: 48, textAlign: 'center', fontVariantNumeric: 'tabular-nums' }}>
        {t('mapping.cartography.zoomLevel', { percent: Math.round(scale * 100) })}
      </Typography>
      <Tooltip title={t('mapping.cartography.zoomIn')}>
        <span>
          <IconButton aria-label={t('mapping.cartography.zoomIn')} onClick={() => void zoomIn(MAP_ZOOM.step)} disabled={scale >= MAP_ZOOM.max}>
            <ZoomIn />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={t('mapping.cartography.zoomReset')}>
        <IconButton aria-label={t('mapping.cartography.zoomReset')} onClick={recentre}>
          <CenterFocusStrong />
        </IconButton>
      </Tooltip>
    </Paper>
  )
}
