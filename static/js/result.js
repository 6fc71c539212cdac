// Send the result (result/result.html, standings/results.html): the phone's share sheet where
// there is one, with the scoreboard's picture where it takes files, and Copy. Without this the
// text is on the page to copy by hand.
export function shareResult() {
  const share = document.querySelector("[data-share-result]");
  const copy = document.querySelector("[data-copy-result]");
  const text = document.getElementById("result-text");
  const said = document.getElementById("result-said");
  if (!share || !copy || !text || !said) return;
  if (navigator.share) {
    let files = [];
    share.hidden = false;
    // Made now, not on the tap: the share sheet opens only straight after a tap.
    picture(share.dataset.picture, share.dataset.file, (file) => {
      if (navigator.canShare && navigator.canShare({ files: [file] })) files = [file];
    });
    share.addEventListener("click", () => {
      const data = { title: document.title, text: text.value };
      if (files.length) data.files = files;
      navigator.share(data).then(
        () => {
          said.textContent = said.dataset.shared;
        },
        () => {
          // closed without sending
        },
      );
    });
  }
  copy.hidden = false;
  copy.addEventListener("click", () => {
    const copied = () => {
      said.textContent = said.dataset.copied;
    };
    const byHand = () => {
      text.select();
      if (document.execCommand("copy")) copied();
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text.value).then(copied, byHand);
    } else {
      byHand();
    }
  });
}

// The scoreboard's picture as a PNG, drawn by the browser from the server's SVG: chat apps take
// a PNG where many refuse an SVG.
function picture(address, name, then) {
  const image = new Image();
  image.onload = () => {
    const canvas = document.createElement("canvas");
    canvas.width = image.naturalWidth * 2;
    canvas.height = image.naturalHeight * 2;
    const context = canvas.getContext("2d");
    context.scale(2, 2);
    context.drawImage(image, 0, 0);
    canvas.toBlob((blob) => {
      if (blob) then(new File([blob], name, { type: "image/png" }));
    }, "image/png");
  };
  image.src = address;
}
