import {
  adminUserSchema,
  resetPasswordResultSchema,
  userListSchema,
  type AdminUser,
  type CreateUserBody,
  type ResetPasswordResult,
  type UpdateUserBody,
  type UserList,
  type UserListQuery,
} from '@cm/contracts/admin.ts';
import { adminApi } from '../admin-api.ts';

/** Users: list, create, edit, disable or enable, reset a password. */
const usersApi = adminApi.injectEndpoints({
  endpoints: (build) => ({
    listUsers: build.query<UserList, UserListQuery>({
      query: (args) => ({ url: '/api/admin/users', params: { ...args, search: args.search || undefined } }),
      transformResponse: (raw: unknown) => userListSchema.parse(raw),
      providesTags: ['AdminUser'],
    }),
    createUser: build.mutation<AdminUser, CreateUserBody>({
      query: (body) => ({ url: '/api/admin/users', method: 'POST', body }),
      transformResponse: (raw: unknown) => adminUserSchema.parse(raw),
      invalidatesTags: ['AdminUser', 'AdminAudit'],
    }),
    updateUser: build.mutation<AdminUser, { id: number; body: UpdateUserBody }>({
      query: ({ id, body }) => ({ url: `/api/admin/users/${id}`, method: 'PATCH', body }),
      transformResponse: (raw: unknown) => adminUserSchema.parse(raw),
      invalidatesTags: ['AdminUser', 'AdminAudit'],
    }),
    setUserDisabled: build.mutation<AdminUser, { id: number; isDisabled: boolean }>({
      query: ({ id, isDisabled }) => ({
        url: `/api/admin/users/${id}/${isDisabled ? 'disable' : 'enable'}`,
        method: 'POST',
      }),
      transformResponse: (raw: unknown) => adminUserSchema.parse(raw),
      invalidatesTags: ['AdminUser', 'AdminAudit'],
    }),
    resetPassword: build.mutation<ResetPasswordResult, number>({
      query: (id) => ({ url: `/api/admin/users/${id}/reset-password`, method: 'POST', body: {} }),
      transformResponse: (raw: unknown) => resetPasswordResultSchema.parse(raw),
      invalidatesTags: ['AdminUser', 'AdminAudit'],
    }),
  }),
});

export const {
  useListUsersQuery,
  useCreateUserMutation,
  useUpdateUserMutation,
  useSetUserDisabledMutation,
  useResetPasswordMutation,
} = usersApi;
