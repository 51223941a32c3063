#!/usr/bin/env bash
# Makes docs/neovim-inbox.png: Neovim with this plugin in tmux on a copy of
# testdata/inbox, the cursor on the agent and require("acg").open_float()
# open; the pane is captured with its colours (tmux capture-pane -e),
# turned into HTML (aha) and photographed by headless Chromium. Needs tmux,
# nvim, aha, chromium and ImageMagick's convert (all Debian packages).
# ACG_LSP names the server; unset, it is built from this checkout.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:-$repo/docs/neovim-inbox.png}
tmp=$(mktemp -d)
sock=acg-shot-$$
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
if [ -z "${ACG_LSP:-}" ]; then
  (cd "$repo" && go build -o "$tmp/acg-lsp" ./cmd/acg-lsp)
  ACG_LSP=$tmp/acg-lsp
fi
cp -r "$repo/testdata/inbox" "$tmp/inbox"
cat >"$tmp/init.lua" <<LUA
vim.opt.rtp:prepend('$here')
vim.cmd('syntax on')
vim.cmd('filetype plugin indent on')
vim.opt.number = true
vim.opt.signcolumn = 'yes'
vim.opt.shortmess:append('I')
vim.cmd('colorscheme slate')
vim.cmd('highlight SignColumn ctermbg=NONE')
vim.cmd('highlight LineNr ctermfg=243')
vim.cmd('highlight NormalFloat ctermbg=236 ctermfg=252')
vim.cmd('highlight FloatBorder ctermbg=236 ctermfg=245')
vim.diagnostic.config({ virtual_text = { prefix = '■' }, severity_sort = true })
require('acg').setup({ cmd = { '$ACG_LSP' } })
vim.keymap.set('n', '<F5>', require('acg').open_float)
LUA
cols=106 rows=50
tmux -L "$sock" -f /dev/null new-session -d -s shot -x $cols -y $rows \
  "cd '$tmp/inbox' && TERM=xterm-256color nvim -u '$tmp/init.lua' -i NONE -n agent.py; sleep 60"
# Wait for acg's sign on line 9, then open the path float on the agent.
for _ in $(seq 100); do
  tmux -L "$sock" capture-pane -t shot -p | grep -q '^E  *9 ' && break
  sleep 0.1
done
tmux -L "$sock" send-keys -t shot '9G19|'
sleep 0.3
tmux -L "$sock" send-keys -t shot F5
sleep 0.5
tmux -L "$sock" capture-pane -t shot -e -p >"$tmp/screen.ansi"
{
  echo '<!doctype html><meta charset="utf-8"><style>'
  echo 'body{margin:0;background:#000} pre{margin:0;padding:10px;font:14px/17px "DejaVu Sans Mono",monospace;color:#ddd} span{padding-bottom:1px}'
  echo '</style><pre>'
  aha --no-header --black <"$tmp/screen.ansi"
  echo '</pre>'
} >"$tmp/screen.html"
chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
  --user-data-dir="$tmp/chrome" --window-size=900,900 \
  --screenshot="$tmp/shot.png" "file://$tmp/screen.html" 2>/dev/null
convert "$tmp/shot.png" -trim +repage -bordercolor black -border 8 -strip -colors 64 "$out"
echo "wrote $out${KEEP:+ (work files in $tmp)}"
