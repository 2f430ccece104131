import PictureAsPdfOutlined from '@mui/icons-material/PictureAsPdfOutlined'
import Button from '@mui/material/Button'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api, data } from '../../api/client'
import { formatDate } from '../../lib/dates'
import { type Cartography, cartographyImageQuery } from './api'
import { EXPORTED_ACTIVITIES, type ExportedSubject } from './pdfLayout'

/** The server's largest page of a list query. */
const MAX_PAGE_SIZE = 200

async function subjectsOf(activityIds: number[]): Promise<ExportedSubject[]> {
  const pages = await Promise.all(
    activityIds.map((activityId) =>
      data(
        api.POST('/backend/api/v2/subject/query', {
          body: { filter: `location oneOf ${activityId}`, sort: 'name', page: 1, pageSize: MAX_PAGE_SIZE },
        }),
      ),
    ),
  )
  return pages.flatMap((page) => page.results)
}

/** Exports the cartography as a PDF built in the browser (jsPDF and its font, loaded on first use). */
export function PdfExportButton({ cartography }: { cartography: Cartography }) {
  const { t, i18n } = useTranslation()
  const queryClient = useQueryClient()
  const exportPdf = useMutation({
    mutationFn: async () => {
      const exported = cartography.activities.slice(0, EXPORTED_ACTIVITIES).map((activity) => activity.id)
      const [{ buildCartographyPdf, fonts }, image, subjects] = await Promise.all([
        import('./cartographyPdf').then(async (pdf) => ({ buildCartographyPdf: pdf.buildCartographyPdf, fonts: await pdf.loadPdfFonts() })),
        queryClient.fetchQuery(cartographyImageQuery(cartography.id)),
        subjectsOf(exported),
      ])
      const doc = buildCartographyPdf(cartography, image, subjects, {
        title: t('siteAndCartography', { site: cartography.site.name, cartography: cartography.name }),
        subtitle: formatDate(new Date(), i18n.language),
        subjectCount: (count) => t('mapping.cartography.subjectCount', { count }),
        noSubject: t('mapping.pdf.noSubject'),
        more: (count) => t('mapping.pdf.more', { count }),
        page: (page, pages) => t('mapping.pdf.page', { page, pages }),
      }, fonts)
      doc.save(`${cartography.code}.pdf`)
    },
  })
  return (
    <Button
      variant="outlined"
      startIcon={<PictureAsPdfOutlined />}
      loading={exportPdf.isPending}
      onClick={() => exportPdf.mutate()}
      sx={{ whiteSpace: 'nowrap' }}
    >
      {t('mapping.cartography.exportPdf')}
    </Button>
  )
}
