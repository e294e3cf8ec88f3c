# 审计记录 (issue 33): 每种指令一个消息 id，带类型化参数；大厅和服务器自己写的记录也一样。
# 英文与以前存储的英文逐字相同（hall::command::describe）；这里是简体中文。
# 一条英文显示代码而其他语言显示词语的记录同时带两个参数，并以不显示的那个作选择（只有默认分支）。

audit-subscribe = 订阅
audit-unsubscribe = 取消订阅
audit-get-table-log = 查看第{ $table }台的记录
audit-export-round = 导出本轮
audit-pause-table = 暂停第{ $table }台：{ $reason }
audit-resume-table = 恢复第{ $table }台
audit-pause-hall = 全场暂停：{ $reason }
audit-resume-hall = 全场恢复
audit-seal = 第{ $table }台封棋（封棋着法保密）
audit-unseal = 第{ $table }台启封续赛
audit-rule-accept = 第{ $table }台：采纳申诉{ $claim }的建议裁决
audit-rule-override = 第{ $table }台：改判申诉{ $claim }为{ $verdict }（{ $must_change }）；理由：{ $reason }
audit-verdict-continue = 继续对局
audit-verdict-draw = 判和
audit-verdict-loss = { $side }负
audit-verdict-correct-move = { $side }还原重走
audit-verdict-order = 变着令
audit-must-change = { $side }须变着
audit-must-change-none = 无须变着
audit-escalate = 第{ $table }台：申诉{ $claim }提交裁判长：{ $reason }
audit-record-foul = 第{ $table }台：记录{ $side }{ $kind }一次：{ $note }
audit-foul-technical = 技术犯规
audit-foul-violation = 违例
audit-adjust-clock = 第{ $table }台：调整时钟，红方{ $red }，黑方{ $black }：{ $reason }
audit-set-result = 第{ $table }台：判定结果{ $result }：{ $reason }
audit-result-red-wins = 红胜
audit-result-black-wins = 黑胜
audit-result-draw = 和棋
audit-result-both-lose = 双方均负
audit-ack-alert = 确认警报{ $alert }
audit-declare-move-limit = 第{ $table }台：宣布限著（限{ $limited }{ $book ->
        [1] ，例和
       *[0] {""}
    }）
audit-declare-move-limit-requested = 第{ $table }台：应{ $requested_by }要求宣布限著（限{ $limited }{ $book ->
        [1] ，例和
       *[0] {""}
    }）
audit-cancel-move-limit = 第{ $table }台：取消限著
audit-pair-next-round = 编排下一轮
audit-publish-round = 发布第{ $round }轮（{ $boards }台，{ $system }，种子{ $seed }）{ $changes }
audit-round-change = ；{ $code ->
       *[other] { $change }
    }，理由：{ $reason }
audit-correct-result = 第{ $round }轮第{ $table }台：成绩更正为{ $result }，理由：{ $reason }
audit-withdraw-round = 撤回第{ $round }轮（已发布，未开始），理由：{ $reason }
audit-enter-player = 补报棋手{ $name }，自下一轮起参赛
audit-enter-player-details = 补报棋手{ $name }（{ $details }），自下一轮起参赛
audit-player-id = 编号{ $id }
audit-player-rating = 等级分{ $rating }
audit-player-federation = 协会{ $federation }
audit-player-club = 俱乐部{ $club }
audit-sep = ，
audit-withdraw-player = 棋手{ $player }自第{ $round }轮起退赛，理由：{ $reason }
audit-claim-lapsed = 第{ $table }台：申诉{ $claim }失效：{ $why }
audit-lapse-too-many = 第{ $table }台同类未决申诉超过{ $max }件：最早的一件失效
audit-lapse-clock-started = 棋钟已启动：双方棋手已到场
audit-lapse-game-ended = 对局已结束（{ $why }）
audit-lapse-moved = { $side }已到场并已行棋
audit-order = 第{ $table }台：第{ $ply }步下达变着令（申诉{ $claim }）：{ $order }
audit-report = 第{ $table }台报告{ $code ->
       *[other] { $action }
    }
audit-publish-round-refused = 发布第{ $round }轮
audit-publish-a-round = 发布一轮
audit-withdraw-round-refused = 撤回第{ $round }轮
audit-correct-result-refused = 更正第{ $round }轮第{ $table }台的成绩
audit-refusals-counted = { $secs }秒内被拒请求{ $count }次（只计数，未逐条存储）
audit-refusals-counted-why = 一个时段内被拒请求超过{ $threshold }次
audit-note = 服务器记录
