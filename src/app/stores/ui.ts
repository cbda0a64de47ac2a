import { proxy } from 'valtio'
import type { ProblemData } from '../../domain/problems'

// spec §2: the five modals, opened through one toggle-modal mechanism.
export const MODAL_NAMES = [
  'ProhibitedContent',
  'StreetView',
  'DoSomethingBig',
  'CutOffTime',
  'PromoCodeError',
] as const
export type ModalName = (typeof MODAL_NAMES)[number]

export type ModalProps = Record<string, string>

type UiState = {
  menuOpen: boolean
  /** an open modal: its texts, and the problem it tells of (the promo code's) */
  modal: { name: ModalName; props: ModalProps; problem?: ProblemData } | null
  featureFlags: Record<string, boolean>
}

export const uiStore = proxy<UiState>({ menuOpen: false, modal: null, featureFlags: {} })

/** spec §2 "toggle-modal event": opens the named modal, or closes it when it is the open one. */
export function toggleModal(name: ModalName, props: ModalProps = {}, problem?: ProblemData): void {
  uiStore.modal =
    uiStore.modal?.name === name ? null : { name, props, ...(problem ? { problem } : {}) }
}

export function closeModal(): void {
  uiStore.modal = null
}

export function setMenuOpen(open: boolean): void {
  uiStore.menuOpen = open
}
