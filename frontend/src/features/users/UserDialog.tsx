import { zodResolver } from '@hookform/resolvers/zod'
import Autocomplete from '@mui/material/Autocomplete'
import MenuItem from '@mui/material/MenuItem'
import TextField from '@mui/material/TextField'
import { useQuery } from '@tanstack/react-query'
import { Controller, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import type { User } from '../../api/types'
import { LANGUAGES } from '../../i18n'
import { FormDialog } from '../../components/FormDialog'
import { TextInput } from '../../components/TextInput'
import { showServerFieldErrors } from '../../lib/forms'
import { useMessage } from '../../lib/messages'
import { optionalText, text } from '../../lib/text'
import { groupsQuery, useCreateUser, useUpdateUser, USER_FIELDS } from './api'

export const PASSWORD_MIN_LENGTH = 8

export const newPassword = () => z.string().min(PASSWORD_MIN_LENGTH, 'passwordTooShort')

function userSchema(creating: boolean) {
  return z.object({
    login: text(),
    firstName: optionalText(),
    lastName: optionalText(),
    externalId: optionalText(),
    // Whether it is an address is the server's rule (invalidEmail), shown on the field.
    email: optionalText(),
    language: z.enum(LANGUAGES),
    password: creating ? newPassword() : z.string(),
    groupIds: z.array(z.number()),
  })
}
type UserForm = z.infer<ReturnType<typeof userSchema>>

interface UserDialogProps {
  /** The user to edit; none to create one. */
  user?: User
  onSaved: () => void
  onClose: () => void
}

export function UserDialog({ user, onSaved, onClose }: UserDialogProps) {
  const { t, i18n } = useTranslation()
  const message = useMessage()
  const creating = user === undefined
  const { data: groups = [] } = useQuery(groupsQuery)
  const create = useCreateUser()
  const update = useUpdateUser()
  const { control, handleSubmit, setError, formState } = useForm<UserForm>({
    resolver: zodResolver(userSchema(creating)),
    defaultValues: {
      login: user?.login ?? '',
      firstName: user?.firstName ?? '',
      lastName: user?.lastName ?? '',
      externalId: user?.externalId ?? '',
      email: user?.email ?? '',
      language: user?.language ?? (i18n.language === 'en' ? 'en' : 'fr'),
      password: '',
      groupIds: user?.groups.map((group) => group.id) ?? [],
    },
  })

  const save = ({ password, ...form }: UserForm) => {
    const body = { ...form, externalId: form.externalId || null, email: form.email || null }
    const handlers = { onSuccess: onSaved, onError: (error: Error) => showServerFieldErrors(error, USER_FIELDS, setError) }
    if (creating) create.mutate({ ...body, password }, handlers)
    else update.mutate({ userId: user.id, body }, handlers)
  }

  return (
    <FormDialog
      title={creating ? t('users.createTitle') : t('users.editTitle', { name: user.displayName })}
      hasErrors={Object.keys(formState.errors).length > 0}
      submitting={create.isPending || update.isPending}
      onSubmit={(event) => void handleSubmit(save)(event)}
      onClose={onClose}
    >
      <TextInput control={control} name="login" label={t('users.login')} required autoFocus autoComplete="off" />
      <TextInput control={control} name="firstName" label={t('users.firstName')} autoComplete="off" />
      <TextInput control={control} name="lastName" label={t('users.lastName')} autoComplete="off" />
      <TextInput control={control} name="externalId" label={t('users.externalId')} autoComplete="off" />
      <TextInput control={control} name="email" label={t('users.email')} type="email" autoComplete="off" />
      <Controller
        control={control}
        name="language"
        render={({ field: { ref, ...field } }) => (
          <TextField {...field} inputRef={ref} select label={t('users.language')} helperText=" ">
            {LANGUAGES.map((language) => (
              <MenuItem key={language} value={language} lang={language}>
                {t(`language.names.${language}`)}
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      {creating && (
        <TextInput control={control} name="password" label={t('users.password')} type="password" required autoComplete="new-password" />
      )}
      <Controller
        control={control}
        name="groupIds"
        render={({ field, fieldState }) => (
          <Autocomplete
            multiple
            options={groups}
            value={groups.filter((group) => field.value.includes(group.id))}
            onChange={(_event, chosen) => field.onChange(chosen.map((group) => group.id))}
            getOptionLabel={(group) => group.name}
            isOptionEqualToValue={(option, value) => option.id === value.id}
            noOptionsText={t('users.noGroupOption')}
            renderInput={(params) => (
              <TextField
                {...params}
                inputRef={field.ref}
                label={t('users.groups')}
                error={fieldState.error !== undefined}
                helperText={message(fieldState.error?.message) ?? ' '}
              />
            )}
          />
        )}
      />
    </FormDialog>
  )
}
