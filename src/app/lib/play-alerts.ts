import * as v from 'valibot'
import { pathOf } from '../../contract/endpoint'
import { type PushSubscriptionInfo, push } from '../../contract/push'
import type { Locale } from '../../domain/locale'
import { apiRequest, callApi } from './api'

// The page's side of "tell me when it plays" (api-v1 "Play alerts"): the browser's Push API
// subscription, made with the shop's VAPID key and handed to the order. The browser keeps one
// subscription for the whole shop; each order holds its own copy, so turning one order's alerts off
// deletes that copy and leaves the browser subscribed for the others.

export type PlayAlertSupport =
  /** push works here */
  | 'push'
  /** iOS and iPadOS: push only in an app added to the home screen (WebKit, since iOS 16.4) */
  | 'install-first'
  /** no service worker, no Push API, or no notifications: nothing to offer */
  | 'none'

/** An iPhone or iPad (an iPad asks for the desktop site: a Mac with a touch screen). */
function isIosDevice(): boolean {
  const ua = navigator.userAgent
  return /iPad|iPhone|iPod/.test(ua) || (ua.includes('Macintosh') && navigator.maxTouchPoints > 1)
}

/** Opened from the home screen (an installed app), not in a browser tab. */
function isStandalone(): boolean {
  return (
    window.matchMedia?.('(display-mode: standalone)').matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  )
}

export function playAlertSupport(): PlayAlertSupport {
  if (typeof window === 'undefined') return 'none'
  if (isIosDevice() && !isStandalone()) return 'install-first'
  // the worker exists only in production builds (pwa-worker.ts registers it)
  if (!import.meta.env.PROD) return 'none'
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window))
    return 'none'
  return 'push'
}

export type OrderRef = { eventSlug: string; guid: string }

/** The subscription's id as the server names it: SHA-256 of its endpoint, base64url. */
async function subscriptionId(endpoint: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(endpoint))
  let binary = ''
  for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** This browser's subscription, when it has one (no worker yet: none). */
async function browserSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration()
  return (await registration?.pushManager.getSubscription()) ?? null
}

/** The id of this browser's subscription on the order, when the order holds it. */
export async function alertsOnHere(order: OrderRef): Promise<string | null> {
  const subscription = await browserSubscription()
  if (!subscription) return null
  const id = await subscriptionId(subscription.endpoint)
  const listed = await callApi(push.subscriptions, { params: order })
  return listed.subscriptions.some((s) => s.id === id) ? id : null
}

export class PlayAlertRefused extends Error {
  constructor(readonly reason: 'permission-denied' | 'permission-dismissed' | 'push-failed') {
    super(reason)
    this.name = 'PlayAlertRefused'
  }
}

const sameKey = (a: ArrayBuffer | null | undefined, b: Uint8Array) =>
  a !== null && a !== undefined && new Uint8Array(a).every((byte, i) => byte === b[i])

/** Asks for permission, subscribes the browser with the shop's key, and hands it to the order. */
export async function turnAlertsOn(order: OrderRef, locale: Locale): Promise<PushSubscriptionInfo> {
  const permission = await Notification.requestPermission()
  if (permission === 'denied') throw new PlayAlertRefused('permission-denied')
  if (permission !== 'granted') throw new PlayAlertRefused('permission-dismissed')
  const { publicKey } = await callApi(push.key, {})
  const key = base64urlBytes(publicKey)
  const registration = await navigator.serviceWorker.ready
  let subscription = await registration.pushManager.getSubscription()
  // a subscription made with another key (the shop's keys were replaced) cannot carry this one's
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe().catch(() => false)
    subscription = null
  }
  if (!subscription) {
    try {
      subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: key,
      })
    } catch {
      throw new PlayAlertRefused('push-failed')
    }
  }
  const json = subscription.toJSON()
  return callApi(push.subscribe, {
    params: order,
    body: {
      endpoint: subscription.endpoint,
      expirationTime: json.expirationTime ?? null,
      keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
      locale,
    },
  })
}

/** Stops this order's alerts on this browser (the browser stays subscribed for other orders). */
export async function turnAlertsOff(order: OrderRef, id: string): Promise<void> {
  await apiRequest(pathOf(push.unsubscribe, { ...order, id }), v.unknown(), {
    method: 'DELETE',
  })
}

function base64urlBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(
    text
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(text.length / 4) * 4, '='),
  )
  const bytes = new Uint8Array(new ArrayBuffer(binary.length))
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}
