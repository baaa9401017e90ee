-- A headless check of `marbles lsp` with Neovim's own LSP client (Neovim 0.7 or later):
--
--   nvim --headless -u editors/nvim/marbles-lsp-check.lua FILE.marble
--
-- opens FILE.marble, starts `marbles lsp` (or $MARBLES lsp), waits for the diagnostics, asks for
-- a hover on the names of the first two `let` streams and on the first operator after a '.',
-- completes after that '.', asks for formatting and code lenses, and prints all of it to standard
-- output; then shuts the server down and quits.
-- The exit status is 0 when the server answered everything, 1 otherwise.
local marbles = os.getenv("MARBLES") or "marbles"
local failed = false

local function say(text)
  io.stdout:write(text .. "\n")
end

local function check()
  local file = vim.fn.argv(0)
  if file == nil or file == "" then
    say("usage: nvim --headless -u editors/nvim/marbles-lsp-check.lua FILE.marble")
    vim.cmd("cquit 2")
  end
  vim.cmd("edit " .. vim.fn.fnameescape(file))
  vim.bo.filetype = "marble"
  local buffer = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = "marbles",
    cmd = { marbles, "lsp" },
    root_dir = vim.fn.getcwd(),
  })
  if client_id == nil then
    say("could not start " .. marbles .. " lsp")
    vim.cmd("cquit 1")
  end
  vim.lsp.buf_attach_client(buffer, client_id)

  -- Diagnostics arrive after didOpen.
  local got = vim.wait(30000, function() return #vim.diagnostic.get(buffer) > 0 end, 20)
  local diagnostics = vim.diagnostic.get(buffer)
  say(("diagnostics (%d):"):format(#diagnostics))
  for _, d in ipairs(diagnostics) do
    say(("  %d:%d-%d:%d %s"):format(d.lnum + 1, d.col + 1, d.end_lnum + 1, d.end_col + 1, (d.message:gsub("\n", "\n    "))))
  end
  if not got then say("  (none within 30 s)") end

  local lines = vim.api.nvim_buf_get_lines(buffer, 0, -1, false)
  local function request(method, params)
    local answers = vim.lsp.buf_request_sync(buffer, method, params, 30000)
    local answer = answers and answers[client_id]
    if answer == nil or answer.err then
      failed = true
      say(("  %s: no answer (%s)"):format(method, answer and vim.inspect(answer.err) or "timed out"))
      return nil
    end
    return answer.result
  end
  local function position(row, byte_column)
    -- LSP counts UTF-16 units; Neovim gives bytes.
    local line = lines[row + 1]
    return { line = row, character = vim.str_utfindex(line, byte_column) }
  end
  local function hover(row, byte_column, what)
    local result = request("textDocument/hover", {
      textDocument = vim.lsp.util.make_text_document_params(buffer),
      position = position(row, byte_column),
    })
    say(("hover on %s (line %d):"):format(what, row + 1))
    if result and result.contents then
      local value = result.contents.value or vim.inspect(result.contents)
      say("  " .. value:gsub("\n", "\n  "))
    else
      say("  (nothing)")
    end
  end

  local operator
  local hovers = 0
  for row, line in ipairs(lines) do
    local start, _, name = line:find("^%s*let%s+([%w_]+)")
    if name and hovers < 2 then
      hovers = hovers + 1
      hover(row - 1, line:find(name, start, true) - 1, "stream " .. name)
      if operator == nil then
        local dot = line:find("%.[%a]", start)
        if dot then operator = { row = row - 1, column = dot } end
      end
    end
  end
  if operator then
    local line = lines[operator.row + 1]
    hover(operator.row, operator.column, "operator " .. line:match("^[%w_]+", operator.column + 1))
    local completion = request("textDocument/completion", {
      textDocument = vim.lsp.util.make_text_document_params(buffer),
      position = position(operator.row, operator.column),
    })
    local items = completion and (completion.items or completion) or {}
    local labels = {}
    for index = 1, math.min(5, #items) do labels[index] = items[index].label end
    say(("completion after '.' on line %d: %d items, first %s"):format(operator.row + 1, #items, table.concat(labels, ", ")))
  end

  local edits = request("textDocument/formatting", {
    textDocument = vim.lsp.util.make_text_document_params(buffer),
    options = { tabSize = 2, insertSpaces = true },
  })
  if edits then say(("formatting: %d edit(s)"):format(#edits)) end

  local lenses = request("textDocument/codeLens", { textDocument = vim.lsp.util.make_text_document_params(buffer) })
  if lenses then
    for _, lens in ipairs(lenses) do
      say(("code lens line %d: %s"):format(lens.range.start.line + 1, lens.command.title))
    end
  end

  vim.lsp.stop_client(client_id)
  vim.wait(10000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
  vim.cmd(failed and "cquit 1" or "qall!")
end

vim.api.nvim_create_autocmd("VimEnter", { callback = function() vim.schedule(check) end })
