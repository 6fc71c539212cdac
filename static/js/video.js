// The screen kept on without the Wake Lock API (a page over plain http://, where no browser
// offers it): a muted video looping inline, as NoSleep.js does, written small. A playing video
// keeps a phone's screen on only where the browser counts it as watched: Chromium does for a
// video on the visible page that covers a fifth of the screen or more, however muted, so this
// one covers the whole screen, fully transparent, behind the page. Its files (media/) are a
// second long, 16 × 16 pixels and have no sound track; the README says where this works.
let video = null;

export function play() {
  if (!video) {
    video = document.createElement("video");
    video.className = "keep-awake-video";
    video.muted = true; // muted and inline: a browser lets it play without a tap
    video.loop = true;
    video.playsInline = true;
    video.setAttribute("playsinline", "");
    video.setAttribute("aria-hidden", "true");
    video.tabIndex = -1;
    for (const [file, type] of [["awake.webm", "video/webm"], ["awake.mp4", "video/mp4"]]) {
      const source = document.createElement("source");
      source.src = new URL(`../media/${file}`, import.meta.url).href;
      source.type = type;
      video.append(source);
    }
    document.body.append(video);
  }
  return video.play().then(() => true, () => false);
}

export function pause() {
  if (video) video.pause();
}
