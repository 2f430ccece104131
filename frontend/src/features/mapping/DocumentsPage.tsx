import ArrowBack from '@mui/icons-material/ArrowBack'
import Description from '@mui/icons-material/Description'
import PictureAsPdf from '@mui/icons-material/PictureAsPdf'
import TableView from '@mui/icons-material/TableView'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import List from '@mui/material/List'
import ListItem from '@mui/material/ListItem'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { visuallyHidden } from '@mui/utils'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, useParams } from 'react-router'
import { LoadFailure } from '../../components/LoadFailure'
import { Loading } from '../../components/Loading'
import { Notice } from '../../components/Notice'
import { PageHeader } from '../../components/PageHeader'
import { Section } from '../../components/Section'
import { formatDateTime } from '../../lib/dates'
import { usePageTitle } from '../../lib/pageTitle'
import { type SiteDocument, downloadSiteDocument, generateDuerp, siteDocumentsQuery } from './api'

const LANGUAGES = ['fr', 'en'] as const

/**
 * The documents of a site (docs/documents.md): its DUERP's versions, newest first, each with its PDF and
 * workbook and their SHA-256; a new version for those the server allows (`can.generate`).
 */
export function DocumentsPage() {
  const { t } = useTranslation()
  const siteId = Number(useParams().siteId)
  const { data: page, error } = useQuery(siteDocumentsQuery(siteId))
  usePageTitle(page ? t('mapping.documents.title', { site: page.site.name }) : t('mapping.documents.link'))
  if (error) return <LoadFailure error={error} />
  if (!page) return <Loading />
  return (
    <>
      <PageHeader
        title={t('mapping.documents.title', { site: page.site.name })}
        actions={
          <Button component={RouterLink} to="/sites" startIcon={<ArrowBack />}>
            {t('mapping.documents.back')}
          </Button>
        }
      />
      <Stack spacing={2}>
        <Section title={t('mapping.documents.duerpTitle')}>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {t('mapping.documents.duerpIntro')}
          </Typography>
          {page.can.generate && <Generate siteId={siteId} />}
        </Section>
        <Section title={t('mapping.documents.versions')}>
          {page.documents.length === 0 ? (
            <Typography color="text.secondary">{t('mapping.documents.none')}</Typography>
          ) : (
            <List disablePadding aria-label={t('mapping.documents.versions')}>
              {page.documents.map((document) => (
                <Version key={document.id} document={document} siteId={siteId} />
              ))}
            </List>
          )}
        </Section>
      </Stack>
    </>
  )
}

function Generate({ siteId }: { siteId: number }) {
  const { t, i18n } = useTranslation()
  const client = useQueryClient()
  const [language, setLanguage] = useState(i18n.language === 'en' ? 'en' : 'fr')
  const [notice, setNotice] = useState<string>()
  const generation = useMutation({
    mutationFn: () => generateDuerp(siteId, language),
    onSuccess: (made) => {
      setNotice(t('mapping.documents.generated', { version: made.version }))
      return client.invalidateQueries({ queryKey: siteDocumentsQuery(siteId).queryKey })
    },
  })
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
      <TextField
        select
        size="small"
        label={t('mapping.documents.language')}
        value={language}
        onChange={(event) => setLanguage(event.target.value)}
        sx={{ minWidth: 200 }}
      >
        {LANGUAGES.map((code) => (
          <MenuItem key={code} value={code}>
            {t(`mapping.documents.languages.${code}`)}
          </MenuItem>
        ))}
      </TextField>
      <Button variant="contained" startIcon={<Description />} loading={generation.isPending} onClick={() => generation.mutate()}>
        {t('mapping.documents.generate')}
      </Button>
      <Notice message={notice} onClose={() => setNotice(undefined)} />
    </Stack>
  )
}

function Version({ document, siteId }: { document: SiteDocument; siteId: number }) {
  const { t, i18n } = useTranslation()
  const [saved, setSaved] = useState('')
  const files = [
    { kind: 'pdf' as const, file: document.pdf, icon: <PictureAsPdf />, label: t('mapping.documents.downloadPdf', { version: document.version }) },
    { kind: 'xlsx', file: document.xlsx, icon: <TableView />, label: t('mapping.documents.downloadXlsx', { version: document.version }) },
  ] as const
  return (
    <ListItem divider disableGutters sx={{ display: 'block', py: 1.5 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={{ xs: 1, md: 2 }} sx={{ alignItems: { md: 'flex-start' } }}>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography component="h3" sx={{ fontWeight: 600 }}>
            {t('mapping.documents.version', { version: document.version })}
          </Typography>
          <Typography variant="body2">
            {t('mapping.documents.createdOn', { date: formatDateTime(document.createdAt, i18n.language), name: document.createdBy })}
            {' · '}
            {t('mapping.documents.inLanguage', { language: t(`mapping.documents.languages.${document.language}`) })}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('mapping.documents.counts', { workUnits: document.workUnits, risks: document.risks, actions: document.actions })}
          </Typography>
          {files.map(({ kind, file }) => (
            <Typography key={kind} variant="caption" component="p" color="text.secondary" sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
              {t(`mapping.documents.hash.${kind}`, { hash: file.sha256 })}
            </Typography>
          ))}
        </Box>
        <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
          {files.map(({ kind, icon, label }) => (
            <Button
              key={kind}
              variant="outlined"
              size="small"
              startIcon={icon}
              aria-label={label}
              onClick={async () => {
                const name = await downloadSiteDocument(siteId, document, kind)
                setSaved(t('mapping.documents.downloaded', { name }))
              }}
            >
              {t(`mapping.documents.${kind}`)}
            </Button>
          ))}
        </Stack>
      </Stack>
      <span aria-live="polite" style={visuallyHidden}>
        {saved}
      </span>
    </ListItem>
  )
}
