# Reads a TextGrid and a WAV as Praat does and reports what it found, one fact a line:
#   tier<TAB>NAME, interval<TAB>TIER<TAB>START<TAB>END<TAB>LABEL (labelled ones), channels N, duration S
form Report
    sentence Grid
    sentence Wav
endform
grid = Read from file: grid$
tiers = Get number of tiers
for tier to tiers
    name$ = Get tier name: tier
    appendInfoLine: "tier", tab$, name$
    intervals = Get number of intervals: tier
    for interval to intervals
        label$ = Get label of interval: tier, interval
        if label$ <> ""
            start = Get start time of interval: tier, interval
            finish = Get end time of interval: tier, interval
            appendInfoLine: "interval", tab$, name$, tab$, fixed$(start, 3), tab$, fixed$(finish, 3), tab$, label$
        endif
    endfor
endfor
sound = Read from file: wav$
channels = Get number of channels
duration = Get total duration
appendInfoLine: "channels", tab$, channels
appendInfoLine: "duration", tab$, fixed$(duration, 3)
